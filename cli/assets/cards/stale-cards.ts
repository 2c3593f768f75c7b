import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheFolderOf } from '../asset-cache.ts';

/** How long a card no build of this checkout uses is kept after it was written: other checkouts and builds share the cache folder. */
export const KEPT_CARD_DAYS = 7;

/**
 * Deletes the cards of the card cache (`folder`) that are stale: not among `used` (the cards a
 * whole build of the site just used), written more than `KEPT_CARD_DAYS` days before `now`, and
 * linked by no output folder (a built site links its cards: a card with another link is some
 * checkout's live output or its spare). Leftovers of interrupted writes (`<hash>.png.<pid>`) go
 * by the same age rule. Returns the names deleted.
 *
 * @example pruneCards(new Set(['…/cards/3f2a9c01b4e7d5a6.png'])) // ['0a1b….png', …]
 */
export function pruneCards(used: ReadonlySet<string>, folder = cacheFolderOf('cards'), now = Date.now()): string[] {
  const oldest = now - KEPT_CARD_DAYS * 86_400_000;
  const deleted: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (!/\.png(\.\d+)?$/.test(name) || used.has(path)) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.mtimeMs > oldest || stat.nlink > 1) continue;
    rmSync(path, { force: true });
    deleted.push(name);
  }
  return deleted;
}
