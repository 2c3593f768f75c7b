import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS } from '../../../../cli/paths.ts';
import { formatProblem } from '../../../../cli/site/errors.ts';

/** A copy of the real content whose site.json is changed by `change`. */
function contentWithSite(change: (site: { product: { operatingSystem: string } }) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(DEFAULT_PATHS.contentDir, dir, { recursive: true });
  const site = JSON.parse(readFileSync(join(dir, 'site.json'), 'utf8'));
  change(site);
  writeFileSync(join(dir, 'site.json'), JSON.stringify(site, null, 2));
  return dir;
}

describe('a build whose structured data is incomplete', () => {
  it('fails, naming the home page and the property, and publishes nothing', async () => {
    const contentDir = contentWithSite((site) => (site.product.operatingSystem = '  '));
    const outDir = join(mkdtempSync(join(tmpdir(), 'out-')), 'dist');
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir, langs: ['en', 'fr'] });
    expect(result.errors.map(formatProblem)).toEqual([
      'index.html: JSON-LD @graph.3.operatingSystem: is empty [structured_data_invalid]',
      'fr.html: JSON-LD @graph.3.operatingSystem: is empty [structured_data_invalid]',
    ]);
    expect(existsSync(outDir)).toBe(false);
  });
});
