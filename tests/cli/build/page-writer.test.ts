import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { precompress } from '../../../cli/assets/precompress.ts';
import { startPageWriter } from '../../../cli/build/page-writer.ts';

const files = [
  { file: 'index.html', text: `<!DOCTYPE html><html lang="en"><p>${'Masked data — ünïcode, '.repeat(200)}</p></html>` },
  { file: 'de/newsletter/confirm.html', text: `<!DOCTYPE html><html lang="de"><p>${'Bestätigen Sie Ihre Adresse. '.repeat(300)}</p></html>` },
  { file: 'robots.txt', text: 'User-agent: *\nAllow: /\n' },
];

describe('startPageWriter', () => {
  it('writes each file, and beside those worth it the same .gz and .br copies precompress makes', async () => {
    const threaded = mkdtempSync(join(tmpdir(), 'page-writer-'));
    const writer = startPageWriter(threaded);
    expect(writer.write(files)).toEqual(files.map((f) => Buffer.byteLength(f.text)));
    await writer.finish();

    const inline = mkdtempSync(join(tmpdir(), 'page-writer-inline-'));
    for (const { file, text } of files) {
      mkdirSync(dirname(join(inline, file)), { recursive: true });
      writeFileSync(join(inline, file), text);
    }
    precompress(inline, files.map((f) => f.file));

    const written = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.includes('.')).sort();
    expect(written(threaded)).toEqual(['de/newsletter/confirm.html', 'de/newsletter/confirm.html.br', 'de/newsletter/confirm.html.gz', 'index.html', 'index.html.br', 'index.html.gz', 'robots.txt']);
    expect(written(inline)).toEqual(written(threaded));
    for (const file of written(threaded)) expect(readFileSync(join(threaded, file)).equals(readFileSync(join(inline, file))), file).toBe(true);
  });

  it('reports a file it cannot write when the build finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-writer-'));
    writeFileSync(join(dir, 'de'), 'a file where the folder de/ should be');
    const writer = startPageWriter(dir);
    writer.write([{ file: 'de/about.html', text: '<p>Über uns</p>' }]);
    await expect(writer.finish()).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});
