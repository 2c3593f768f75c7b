import { linkSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spareDirOf } from '../../../../cli/pipeline/cache/output-store.ts';
import { OUTPUT_MARKER } from '../../../../cli/pipeline/output-dir.ts';
import { FolderSink } from '../../../../cli/pipeline/sink/folder-sink.ts';
import { freshFolder } from '../../../../cli/pipeline/sink/fresh-folder.ts';
import { digest } from '../../../../cli/pipeline/cache/page-inputs.ts';
import { filesIn, inode, leftBeside, newOutDir, NO_RECORDS, page, withCopies } from '../../../helpers/sink-folders.ts';

/** An output folder as an earlier build left it: a page the next build no longer has. */
function servedOutput(name: string): string {
  const outDir = newOutDir(name);
  mkdirSync(join(outDir, 'old'), { recursive: true });
  writeFileSync(join(outDir, OUTPUT_MARKER), 'sitegen\n');
  writeFileSync(join(outDir, 'old', 'gone.html'), page('deleted page'));
  return outDir;
}

describe('the fresh folder sink (--no-cache)', () => {
  it('publishes exactly the files written and kept: pages with their compressed copies, kept files linked, nothing left of the old output', async () => {
    const outDir = servedOutput('fresh');
    const card = join(mkdtempSync(join(tmpdir(), 'sink-card-')), 'card.png');
    writeFileSync(card, 'png bytes');
    const sink = new FolderSink(freshFolder(outDir));
    const sizes = sink.write([{ file: 'de/about.html', text: page('Über uns') }, { file: 'robots.txt', text: 'User-agent: *\n' }]);
    expect(sizes.map((size) => size.bytes)).toEqual([Buffer.byteLength(page('Über uns')), 14]);
    sink.keep('cards/de/about.png', { hash: digest(readFileSync(card)), source: card });
    const published = await sink.finish(NO_RECORDS);

    expect(filesIn(outDir)).toEqual([OUTPUT_MARKER, 'cards/de/about.png', 'de/about.html', 'de/about.html.br', 'de/about.html.gz', 'robots.txt']);
    expect(withCopies(outDir, 'de/about.html')).toEqual(Array(3).fill(page('Über uns')));
    expect(inode(join(outDir, 'cards/de/about.png'))).toBe(inode(card));
    expect(published.written).toBe(filesIn(outDir).length);
    expect(leftBeside(outDir)).toEqual([]);
  });

  it('leaves a spare of hard links to the new output, so the next build writes only what changed', async () => {
    const outDir = servedOutput('fresh-spare');
    const sink = new FolderSink(freshFolder(outDir));
    sink.write([{ file: 'index.html', text: page('Home') }]);
    await sink.finish(NO_RECORDS);
    const spare = spareDirOf(outDir);
    expect(filesIn(spare)).toEqual(filesIn(outDir));
    for (const file of filesIn(outDir)) expect(inode(join(spare, file)), file).toBe(inode(join(outDir, file)));
  });

  it('a failed build leaves the served output as it was and no folder of its own', async () => {
    const outDir = servedOutput('fresh-failed');
    const served = readFileSync(join(outDir, 'old', 'gone.html'));
    const sink = new FolderSink(freshFolder(outDir));
    sink.write([{ file: 'index.html', text: page('Home') }]);
    await sink.discard();
    expect(filesIn(outDir)).toEqual([OUTPUT_MARKER, 'old/gone.html']);
    expect(readFileSync(join(outDir, 'old', 'gone.html')).equals(served)).toBe(true);
    expect(leftBeside(outDir)).toEqual([]);
  });

  it('never writes through a link: a kept file shared with another folder keeps its bytes when the sink writes that path', async () => {
    const outDir = servedOutput('fresh-link');
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'sink-elsewhere-')), 'index.html');
    writeFileSync(elsewhere, 'the served page');
    const sink = new FolderSink(freshFolder(outDir));
    mkdirSync(sink.dir, { recursive: true });
    linkSync(elsewhere, join(sink.dir, 'index.html'));
    sink.write([{ file: 'index.html', text: page('New home') }]);
    await sink.finish(NO_RECORDS);
    expect(readFileSync(elsewhere, 'utf8')).toBe('the served page');
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe(page('New home'));
  });
});
