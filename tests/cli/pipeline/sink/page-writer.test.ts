import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAST_LEVELS, precompress } from '../../../../cli/assets/precompress.ts';
import { INLINE_FILES, startPageWriter } from '../../../../cli/pipeline/sink/page-writer.ts';

const files = [
  { file: 'index.html', text: `<!DOCTYPE html><html lang="en"><p>${'Masked data — ünïcode, '.repeat(200)}</p></html>` },
  { file: 'de/newsletter/confirm.html', text: `<!DOCTYPE html><html lang="de"><p>${'Bestätigen Sie Ihre Adresse. '.repeat(300)}</p></html>` },
  { file: 'robots.txt', text: 'User-agent: *\nAllow: /\n' },
  // Past 256 KB, as the scaling site's sitemap (1 MB): written here, its copies are compressed in the background.
  { file: 'sitemap.xml', text: `<urlset>${Array.from({ length: 3000 }, (_, i) => `<url><loc>https://example.com/de/seite-${i}</loc><lastmod>2026-11-28T10:00:00Z</lastmod></url>`).join('\n')}</urlset>` },
];

describe('startPageWriter', () => {
  it.each([
    ['in its threads', 0],
    ['on the build’s own thread (a small rebuild)', INLINE_FILES],
  ])('writes each file %s, and beside those worth it the same .gz and .br copies precompress makes', async (_where, inlineFiles) => {
    const threaded = mkdtempSync(join(tmpdir(), 'page-writer-'));
    const writer = startPageWriter(threaded, FAST_LEVELS, inlineFiles);
    expect(writer.write(files)).toEqual(files.map((f) => Buffer.byteLength(f.text)));
    await writer.finish();

    const inline = mkdtempSync(join(tmpdir(), 'page-writer-inline-'));
    for (const { file, text } of files) {
      mkdirSync(dirname(join(inline, file)), { recursive: true });
      writeFileSync(join(inline, file), text);
    }
    precompress(inline, files.map((f) => f.file));

    const written = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.includes('.')).sort();
    expect(written(threaded)).toEqual(['de/newsletter/confirm.html', 'de/newsletter/confirm.html.br', 'de/newsletter/confirm.html.gz', 'index.html', 'index.html.br', 'index.html.gz', 'robots.txt', 'sitemap.xml', 'sitemap.xml.br', 'sitemap.xml.gz']);
    expect(written(inline)).toEqual(written(threaded));
    for (const file of written(threaded)) expect(readFileSync(join(threaded, file)).equals(readFileSync(join(inline, file))), file).toBe(true);
  });

  it.each([
    ['in its threads', 0],
    ['on the build’s own thread', INLINE_FILES],
  ])('reports a file it cannot write %s when the build finishes', async (_where, inlineFiles) => {
    const dir = mkdtempSync(join(tmpdir(), 'page-writer-'));
    writeFileSync(join(dir, 'de'), 'a file where the folder de/ should be');
    const writer = startPageWriter(dir, FAST_LEVELS, inlineFiles);
    writer.write([{ file: 'de/about.html', text: '<p>Über uns</p>' }]);
    await expect(writer.finish()).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});
