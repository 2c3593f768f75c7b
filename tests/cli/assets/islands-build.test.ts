import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIslands } from '../../../cli/assets/islands-build.ts';

describe('the island bundle', () => {
  it('regression: built in a process whose NODE_ENV is "test", it still calls React\'s production JSX runtime', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const outDir = mkdtempSync(join(tmpdir(), 'islands-'));
    const bundle = await buildIslands(outDir);
    expect(bundle.files.length).toBeGreaterThan(3);
    for (const { file } of bundle.files) expect(readFileSync(join(outDir, file), 'utf8'), file).not.toContain('jsxDEV');
  }, 60_000);
});
