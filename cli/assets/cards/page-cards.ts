/**
 * The social card of each indexed page: a 1200×630 PNG of its title, its section and the brand
 * (`socialImageSvg`), drawn by card-drawing.js and kept in the asset cache under the hash of what it
 * shows and of what draws it (`drawingInputs`). A build draws only the cards whose text is new:
 * a one-string rebuild draws none, or the one card whose title changed. The card's URL carries
 * that hash, so it changes exactly when the picture does.
 *
 *   const { cards, rendered } = await pageCards([{ id: '/de/about', lang: 'de', text }]);
 *   cards.get('/de/about') // { url: '/assets/social/de/3f2a9c01b4e7d5a6.png', file: 'assets/social/de/3f2a….png', source: '…/cards/3f2a….png', hash: '3f2a…' }
 */
import { createHash, hash as oneShotHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Lang } from '../../site/languages.ts';
import { cacheFolderOf, inputsHash } from '../asset-cache.ts';
import { moduleGraph } from '../module-graph.ts';
// @ts-expect-error -- plain JavaScript (a worker thread loads it too), typed by its JSDoc.
import { CARD_FONTS } from './card-drawing.js';
// @ts-expect-error -- plain JavaScript (the thread's own module), typed by its JSDoc.
import { drawCards } from './card-thread.js';
import { socialImageSvg, type SocialImageText } from './social-image.ts';

/** How many missing cards a build draws on its own thread: a one-string rebuild draws one, and a thread's start would cost more than it. */
export const INLINE_CARDS = 8;

/** How many cards one worker thread draws before it exits and frees their native memory (3.3 MB each). */
export const CARDS_PER_THREAD = 32;

/** One page's card as the pages and the output plan use it. */
export interface PageCard {
  /** Its URL path, `/assets/social/<lang>/<hash>.png`. */
  url: string;
  /** Its file under the output folder. */
  file: string;
  /** The cached PNG to link or copy into the output. */
  source: string;
  /** The hash of its inputs: the same hash, the same bytes. */
  hash: string;
}

/**
 * The files whose bytes decide a card's pixels besides its text: the SVG template and what it
 * imports, the module that turns SVG into PNG, and the locked packages (resvg's version). Not the
 * code that caches the cards (this module, the asset cache): editing it renames no card.
 */
export function drawingInputs(): string[] {
  return [...moduleGraph([new URL('./social-image.ts', import.meta.url), new URL('./card-drawing.js', import.meta.url)]), 'package-lock.json'];
}

/** The hash of what draws every card: `drawingInputs`, and the fonts (path and size). */
function drawingHash(): string {
  const fonts = (CARD_FONTS as string[]).map((file) => `${file} ${statSync(file, { throwIfNoEntry: false })?.size ?? 'absent'}`);
  return createHash('sha256').update(inputsHash(drawingInputs())).update(fonts.join('\n')).digest('hex');
}

/** Draws `cards` in worker threads, one at a time, each drawing `CARDS_PER_THREAD` and exiting: the native memory of a build's cards stays bounded by a chunk's. */
async function drawInThreads(cards: readonly { svg: string; path: string }[]): Promise<void> {
  for (let start = 0; start < cards.length; start += CARDS_PER_THREAD) {
    const worker = new Worker(new URL('./card-thread.js', import.meta.url), { workerData: { cardThread: true, cards: cards.slice(start, start + CARDS_PER_THREAD) } });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a card drawing thread stopped with exit code ${code}`))));
    });
  }
}

/**
 * The card of each requested page (by `id`, its URL path), drawing the ones the cache folder
 * (`folder`, the asset cache's `cards` by default) lacks; returns them and how many were drawn.
 */
export async function pageCards(
  requests: readonly { id: string; lang: Lang; text: SocialImageText }[],
  folder = cacheFolderOf('cards'),
): Promise<{ cards: Map<string, PageCard>; rendered: number }> {
  const drawing = drawingHash();
  const cards = new Map<string, PageCard>();
  const missing = new Map<string, { svg: string; path: string }>();
  // Each file's path as `join(folder, name)` makes it, the folder's part made once (1,352 cards on the scaling site).
  const inFolder = join(folder, '_').slice(0, -1);
  for (const { id, lang, text } of requests) {
    // The SHA-256 of the drawing's hash followed by the text, in one call: a hash object per card cost three times as much.
    const hash = oneShotHash('sha256', `${drawing}${JSON.stringify(text)}`).slice(0, 16);
    const source = `${inFolder}${hash}.png`;
    if (!missing.has(source) && !existsSync(source)) missing.set(source, { svg: socialImageSvg(text), path: source });
    const url = `/assets/social/${lang}/${hash}.png`;
    cards.set(id, { url, file: url.slice(1), source, hash });
  }
  // A few on this thread (no thread to start); more in worker threads, whose exit frees their pixels.
  if (missing.size > INLINE_CARDS) await drawInThreads([...missing.values()]);
  else if (missing.size > 0) await drawCards([...missing.values()]);
  return { cards, rendered: missing.size };
}
