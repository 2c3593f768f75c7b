import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPreviousBuild, spareDirOf } from '../../../../cli/pipeline/cache/output-store.ts';
import { digest } from '../../../../cli/pipeline/cache/page-inputs.ts';
import { OUTPUT_MARKER } from '../../../../cli/pipeline/output-dir.ts';
import { FolderSink } from '../../../../cli/pipeline/sink/folder-sink.ts';
import { spareFolder } from '../../../../cli/pipeline/sink/spare-folder.ts';
import { filesIn, inode, leftBeside, newOutDir, NO_RECORDS, page, withCopies } from '../../../helpers/sink-folders.ts';

/** A cached build's sink on `outDir`, reading the records the last one left. */
const spareSink = (outDir: string) => new FolderSink(spareFolder(outDir, readPreviousBuild(outDir)));

/** Builds `pages` (file → text) into `outDir` through the spare; `kept` pages are kept from the output as an earlier build wrote them. */
async function build(outDir: string, pages: Record<string, string>, kept: Record<string, string> = {}) {
  const sink = spareSink(outDir);
  sink.write(Object.entries(pages).map(([file, text]) => ({ file, text })));
  for (const [file, text] of Object.entries(kept)) {
    const bytes = new TextEncoder().encode(text);
    sink.keep(file, { hash: digest(bytes), bytes: bytes.length, source: join(outDir, file) });
  }
  return sink.finish(NO_RECORDS);
}

describe('the spare folder sink (the cached build)', () => {
  it('writes only what changed, links a kept page and its compressed copies to the served ones, and leaves nothing of a deleted page', async () => {
    const outDir = newOutDir('spare');
    await build(outDir, { 'about.html': page('About'), 'contact.html': page('Contact'), 'gone.html': page('Gone') });
    const contact = inode(join(outDir, 'contact.html'));
    const contactGz = inode(join(outDir, 'contact.html.gz'));

    const changed = await build(outDir, { 'about.html': page('About us') }, { 'contact.html': page('Contact') });
    expect(filesIn(outDir)).toEqual([OUTPUT_MARKER, ...['about.html', 'contact.html'].flatMap((file) => [file, `${file}.br`, `${file}.gz`])]);
    expect(withCopies(outDir, 'about.html')).toEqual(Array(3).fill(page('About us')));
    expect([inode(join(outDir, 'contact.html')), inode(join(outDir, 'contact.html.gz'))]).toEqual([contact, contactGz]);
    // The first build left a spare of links: the changed page and its two copies are all that is written.
    expect(changed.written).toBe(3);
    expect(leftBeside(outDir)).toEqual([]);
  });

  it('publishes nothing when the output already holds exactly the build: the served files keep their inodes', async () => {
    const outDir = newOutDir('spare-same');
    await build(outDir, { 'index.html': page('Home') });
    const served = inode(join(outDir, 'index.html'));
    const again = await build(outDir, { 'index.html': page('Home') });
    expect(again.written).toBe(0);
    expect(inode(join(outDir, 'index.html'))).toBe(served);
  });

  it('a page the output has and the spare lacks, or the spare has with other content, is put right when the spare becomes the output', async () => {
    const outDir = newOutDir('spare-differs');
    await build(outDir, { 'index.html': page('Home') });
    // The output gains a page its spare lacks, then a page changes: the spare is written where it differs.
    await build(outDir, { 'index.html': page('Home'), 'new.html': page('New page') });
    await build(outDir, { 'index.html': page('Home, second') }, { 'new.html': page('New page') });
    expect(filesIn(outDir)).toEqual([OUTPUT_MARKER, ...['index.html', 'new.html'].flatMap((file) => [file, `${file}.br`, `${file}.gz`])]);
    expect(withCopies(outDir, 'new.html')).toEqual(Array(3).fill(page('New page')));
    // The spare holds the first home page, the output the second: the next build back to the first writes nothing new.
    const back = await build(outDir, { 'index.html': page('Home') }, { 'new.html': page('New page') });
    expect(back.written).toBe(0);
    expect(withCopies(outDir, 'index.html')).toEqual(Array(3).fill(page('Home')));
  });

  it('a page written by a failed build is not trusted by the next one, which writes it again', async () => {
    const outDir = newOutDir('spare-failed');
    await build(outDir, { 'index.html': page('Home') });
    await build(outDir, { 'index.html': page('Home, second') });
    const failed = spareSink(outDir);
    failed.write([{ file: 'index.html', text: page('Home, failed') }]);
    await failed.discard();
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe(page('Home, second'));
    // The spare is edited by hand too: a file whose size and time differ from its record is written again.
    writeFileSync(join(spareDirOf(outDir), 'index.html'), 'changed by hand');
    await build(outDir, { 'index.html': page('Home') });
    expect(withCopies(outDir, 'index.html')).toEqual(Array(3).fill(page('Home')));
  });

  it('trusts a kept page\'s compressed copies with their page: a failed build\'s copies go with the page it wrote', async () => {
    const outDir = newOutDir('spare-copies-failed');
    await build(outDir, { 'index.html': page('Home') });
    await build(outDir, { 'about.html': page('About') }, { 'index.html': page('Home') });
    // A build that failed after writing the page and its copies into the spare.
    const failed = spareSink(outDir);
    failed.write([{ file: 'index.html', text: page('Home, failed') }]);
    await failed.discard();
    expect(withCopies(spareDirOf(outDir), 'index.html')).toEqual(Array(3).fill(page('Home, failed')));
    // The next build keeps the page: the spare's page is not as recorded, so neither are its copies.
    await build(outDir, { 'about.html': page('About us') }, { 'index.html': page('Home') });
    expect(withCopies(outDir, 'index.html')).toEqual(Array(3).fill(page('Home')));
  });

  it('links again an asset (named by its content) that is missing from the spare, and keeps one that is there', async () => {
    const outDir = newOutDir('spare-asset-missing');
    const source = join(outDir, '..', 'card.png');
    writeFileSync(source, 'a card');
    const card = 'assets/social/en/c4rd.png';
    const buildWithCard = async (pages: Record<string, string>) => {
      const sink = spareSink(outDir);
      sink.write(Object.entries(pages).map(([file, text]) => ({ file, text })));
      sink.keep(card, { hash: digest(new TextEncoder().encode('a card')), source });
      return sink.finish(NO_RECORDS);
    };
    await buildWithCard({ 'index.html': page('Home') });
    await buildWithCard({ 'index.html': page('Home, second') });
    rmSync(join(spareDirOf(outDir), card));
    await buildWithCard({ 'index.html': page('Home, third') });
    expect(readFileSync(join(outDir, card), 'utf8')).toBe('a card');
    // Now in both folders: the next build links nothing more for it.
    const unchanged = await buildWithCard({ 'index.html': page('Home, fourth') });
    expect(unchanged.written).toBe(3);
  });

  it('links again a kept page\'s compressed copy that is missing from the spare', async () => {
    const outDir = newOutDir('spare-copy-missing');
    await build(outDir, { 'index.html': page('Home') });
    await build(outDir, { 'about.html': page('About') }, { 'index.html': page('Home') });
    rmSync(join(spareDirOf(outDir), 'index.html.gz'));
    await build(outDir, { 'about.html': page('About us') }, { 'index.html': page('Home') });
    expect(withCopies(outDir, 'index.html')).toEqual(Array(3).fill(page('Home')));
  });
});
