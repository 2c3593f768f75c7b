import { describe, expect, it } from 'vitest';
import { PageStore } from '../../../../cli/dev/page-store.ts';
import { MemorySink } from '../../../../cli/pipeline/sink/memory-sink.ts';

/** Hands `pages` (file → HTML) to a memory sink over `store`, keeps `kept`, and finishes: the files whose HTML changed. */
function rebuild(store: PageStore, whole: boolean, pages: Record<string, string>, kept: string[] = []): Promise<string[]> {
  const sink = new MemorySink(store, { whole });
  sink.write(Object.entries(pages).map(([file, text]) => ({ file, text })));
  for (const file of kept) sink.keep(file);
  return sink.finish();
}

describe('the memory sink (sitegen dev)', () => {
  it('serves the pages written, each with a version that changes only when its HTML does', async () => {
    const store = new PageStore();
    expect(await rebuild(store, true, { 'index.html': '<p>Home</p>', 'de/index.html': '<p>Start</p>' })).toEqual(['index.html', 'de/index.html']);
    const version = store.get('index.html')!.version;
    expect(await rebuild(store, false, { 'index.html': '<p>Home</p>', 'de/index.html': '<p>Startseite</p>' })).toEqual(['de/index.html']);
    expect(store.get('index.html')).toEqual({ html: '<p>Home</p>', version });
    expect(store.get('de/index.html')?.html).toBe('<p>Startseite</p>');
  });

  it('leaves the pages a partial rebuild did not touch, and a whole rebuild removes those it neither wrote nor kept', async () => {
    const store = new PageStore();
    await rebuild(store, true, { 'index.html': 'a', 'about.html': 'b', 'gone.html': 'c' });
    await rebuild(store, false, { 'about.html': 'b2' });
    expect(['index.html', 'about.html', 'gone.html'].map((file) => store.get(file)?.html)).toEqual(['a', 'b2', 'c']);
    expect(await rebuild(store, true, { 'about.html': 'b2' }, ['index.html'])).toEqual(['gone.html']);
    expect(store.has('gone.html')).toBe(false);
    expect(store.get('index.html')?.html).toBe('a');
  });

  it('writes nothing when discarded: a failed rebuild changes nothing served', async () => {
    const store = new PageStore();
    await rebuild(store, true, { 'index.html': 'a' });
    const sink = new MemorySink(store, { whole: true });
    sink.write([{ file: 'index.html', text: 'broken' }]);
    await sink.discard();
    expect(store.get('index.html')?.html).toBe('a');
  });

  it('answers each file’s size in UTF-8 bytes and its content hash, as the folder sinks do', () => {
    const [written] = new MemorySink(new PageStore(), { whole: false }).write([{ file: 'de/about.html', text: 'Über' }]);
    expect(written!.bytes).toBe(5);
    expect(written!.hash).toMatch(/^[0-9a-f]{32}$/);
  });
});
