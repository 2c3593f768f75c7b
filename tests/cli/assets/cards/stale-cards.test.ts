import { existsSync, linkSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEPT_CARD_DAYS, pruneCards } from '../../../../cli/assets/cards/stale-cards.ts';
import { testFolder } from '../../../helpers/test-folders.ts';

describe('the card cache after a whole build', () => {
  it('regression: deletes the cards no build uses that are older than the kept days (the cache kept every card ever drawn), and keeps used, recent and linked ones', () => {
    const folder = testFolder('cards-');
    const out = testFolder('out-');
    const now = Date.now();
    const daysAgo = (days: number) => new Date(now - days * 86_400_000);
    const card = (name: string, days: number) => {
      writeFileSync(join(folder, name), 'png');
      utimesSync(join(folder, name), daysAgo(days), daysAgo(days));
      return join(folder, name);
    };
    const used = card('0000000000000001.png', 30);
    card('0000000000000002.png', 30); // stale
    card('0000000000000003.png', KEPT_CARD_DAYS - 1); // recent: another checkout may use it
    const linked = card('0000000000000004.png', 30); // linked into some checkout's output
    linkSync(linked, join(out, 'card.png'));
    card('0000000000000005.png.4242', 30); // an interrupted write
    card('0000000000000006.png.4243', 0); // a write under way
    writeFileSync(join(folder, 'notes.txt'), 'not a card');
    utimesSync(join(folder, 'notes.txt'), daysAgo(30), daysAgo(30));

    expect(pruneCards(new Set([used]), folder, now).sort()).toEqual(['0000000000000002.png', '0000000000000005.png.4242']);
    expect(readdirSync(folder).sort()).toEqual(['0000000000000001.png', '0000000000000003.png', '0000000000000004.png', '0000000000000006.png.4243', 'notes.txt']);
    expect(existsSync(join(out, 'card.png'))).toBe(true);
  });
});
