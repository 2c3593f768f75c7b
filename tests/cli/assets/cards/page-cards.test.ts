import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARDS_PER_THREAD, drawingInputs, INLINE_CARDS, pageCards } from '../../../../cli/assets/cards/page-cards.ts';
import { PROJECT_ROOT } from '../../../../cli/paths.ts';
import { testFolder } from '../../../helpers/test-folders.ts';

const text = (title: string) => ({ brand: 'MaskWise', title, tagline: 'Legal', host: 'maskwise.example' });

describe('the social cards', () => {
  it('regression: the hash that names every card covers the code that draws it, not the code that caches it (an edit to the cache renamed every card)', () => {
    const inputs = drawingInputs().map((file) => relative(PROJECT_ROOT, file));
    // The template and what it imports, the SVG-to-PNG module, resvg's locked version.
    expect(inputs).toEqual(expect.arrayContaining(['cli/assets/cards/social-image.ts', 'cli/assets/favicon.ts', 'cli/assets/cards/card-drawing.js', 'package-lock.json']));
    for (const cache of ['cli/assets/cards/page-cards.ts', 'cli/assets/cards/card-thread.js', 'cli/assets/asset-cache.ts', 'cli/assets/module-graph.ts', 'cli/files/file-memo.ts', 'cli/files/fingerprint.ts']) {
      expect(inputs, cache).not.toContain(cache);
    }
  });

  it('draws many missing cards in worker threads, chunk by chunk, into the same bytes as one at a time on its own thread; drawn once', async () => {
    const titles = Array.from({ length: CARDS_PER_THREAD + 2 }, (_, i) => `Datenschutz für Testdaten, Kapitel ${i} & <Anhang>`);
    const requests = titles.map((title, i) => ({ id: `/de/page-${i}`, lang: 'de' as const, text: text(title) }));
    expect(requests.length).toBeGreaterThan(INLINE_CARDS);
    const threads = testFolder('cards-');
    const many = await pageCards(requests, threads);
    expect(many.rendered).toBe(requests.length);
    expect(readdirSync(threads).sort()).toEqual([...many.cards.values()].map((card) => `${card.hash}.png`).sort());

    const inline = testFolder('cards-');
    for (const request of requests) expect((await pageCards([request], inline)).rendered).toBe(1);
    for (const card of many.cards.values()) {
      const bytes = readFileSync(card.source);
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
      expect(bytes.equals(readFileSync(card.source.replace(threads, inline))), card.url).toBe(true);
    }
    // Cached: the next build draws none, and names them the same.
    const again = await pageCards(requests, threads);
    expect(again.rendered).toBe(0);
    expect([...again.cards.values()].map((card) => card.url)).toEqual([...many.cards.values()].map((card) => card.url));
  }, 120_000);
});
