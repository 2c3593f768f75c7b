import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { buildSite, type BuildResult } from '../../cli/build/build-site.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { textOf } from './html-text.ts';

let cached: Promise<{ outDir: string; result: BuildResult }> | undefined;

/** Builds the real site once per test file into a temporary folder. */
export function builtSite(): Promise<{ outDir: string; result: BuildResult }> {
  cached ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sitegen-test-'));
    const result = await buildSite({ ...DEFAULT_PATHS, outDir, now: new Date('2026-03-01T00:00:00Z') });
    return { outDir, result };
  })();
  return cached;
}

/**
 * Builds the site before the tests of the calling file or `describe` block, failing them if the
 * build reports errors, and gives its output folder once built: `const built = useBuiltSite();`
 * then `readBuilt(built.outDir, 'index.html')` inside a test.
 */
export function useBuiltSite(): { readonly outDir: string } {
  const built = { outDir: '' };
  beforeAll(async () => {
    const { outDir, result } = await builtSite();
    expect(result.errors).toEqual([]);
    built.outDir = outDir;
  });
  return built;
}

/** Reads a built file as text. */
export function readBuilt(outDir: string, file: string): string {
  return readFileSync(join(outDir, file), 'utf8');
}

/** The visible text of an HTML document: tags, scripts and styles removed, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return textOf(html.replace(/<head>[\s\S]*?<\/head>/, ' ').replace(/<(script|style)[\s\S]*?<\/\1>/g, ' '));
}

/** Collapses every kind of space (French typography uses narrow no-break spaces) to one plain space. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The value of the first attribute `attr` on a tag matching `tagPattern`, e.g. the canonical href. */
export function attributeOf(html: string, tagPattern: RegExp, attr: string): string | undefined {
  const tag = html.match(tagPattern)?.[0];
  return tag?.match(new RegExp(`${attr}="([^"]*)"`))?.[1];
}
