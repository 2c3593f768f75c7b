import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIslands } from '../../../cli/assets/islands-build.ts';
import { useBuiltSite } from '../../helpers/built-site.ts';
import { pageWeight } from '../../helpers/page-weight.ts';

/** The island code a page may load on top of React's runtime, gzip: the project's budget (`npm run bench:build`). */
const ISLAND_CODE_BUDGET = 15 * 1024;

describe('the island bundle', () => {
  it('regression: built in a process whose NODE_ENV is "test", it still calls React\'s production JSX runtime', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const outDir = mkdtempSync(join(tmpdir(), 'islands-'));
    const bundle = await buildIslands(outDir);
    expect(bundle.files.length).toBeGreaterThan(3);
    for (const { file } of bundle.files) expect(readFileSync(join(outDir, file), 'utf8'), file).not.toContain('jsxDEV');
  }, 60_000);
});

describe('the island code of the built pages', () => {
  const built = useBuiltSite();

  it('regression: no page loads more than 15 KB gzip of island code on top of React (the contact pages loaded 16,231 B)', () => {
    const pages = (readdirSync(built.outDir, { recursive: true }) as string[]).filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(50);
    const contact = pageWeight(built.outDir, 'contact.html');
    // The contact page loads the most: the header's menus, the form, the contract and zod.
    expect(contact.jsIslandsGzip).toBeGreaterThan(5 * 1024);
    for (const page of pages) expect(pageWeight(built.outDir, page).jsIslandsGzip, page).toBeLessThanOrEqual(ISLAND_CODE_BUDGET);
  });
});
