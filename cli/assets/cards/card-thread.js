// Draws missing cards into the card cache (see page-cards.ts), on the calling thread for a few or
// in a worker thread for a chunk. Each card drawn keeps a 1200×630 RGBA pixmap (3.3 MB) in native
// memory that V8 does not count, so garbage collection seldom frees it: a build that drew 1,161
// cards in its own thread peaked at 4.1 GB. A thread that exits frees what it drew. Plain
// JavaScript on purpose: a worker thread starts without the TypeScript loader.
//
// workerData: { cardThread: true, cards: [{ svg, path }] }: the thread draws each card, writes it
// at `path` and exits; an error ends it, and the main thread reports it.
import { renameSync, writeFileSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { cardDrawer } from './card-drawing.js';

/**
 * Draws each card's SVG and writes the PNG at its path: written beside, then renamed, so another
 * build reading the cache never sees half a card.
 *
 * @param {{ svg: string, path: string }[]} cards
 */
export async function drawCards(cards) {
  const draw = await cardDrawer();
  for (const { svg, path } of cards) {
    writeFileSync(`${path}.${process.pid}`, draw(svg));
    renameSync(`${path}.${process.pid}`, path);
  }
}

// Not awaited at the top level (the module is bundled into a CommonJS script too): a rejection
// ends the thread with an error, which the main thread reports.
if (!isMainThread && workerData?.cardThread) void drawCards(workerData.cards);
