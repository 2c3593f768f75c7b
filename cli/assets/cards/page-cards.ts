/**
 * The social card of each indexed page: a 1200×630 PNG of its title, its section and the brand
 * (`socialImageSvg`), rendered with resvg and kept in the asset cache under the hash of what it
 * shows and of the code and fonts that draw it. A build renders only the cards whose text is new:
 * a one-string rebuild renders none, or the one card whose title changed. The card's URL carries
 * that hash, so it changes exactly when the picture does.
 *
 *   const { cards, rendered } = await pageCards([{ id: '/de/about', lang: 'de', text }]);
 *   cards.get('/de/about') // { url: '/assets/social/de/3f2a9c01b4e7d5a6.png', file: 'assets/social/de/3f2a….png', source: '…/cards/3f2a….png', hash: '3f2a…' }
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lang } from '../../site/languages.ts';
import { cacheFolderOf, inputsHash } from '../asset-cache.ts';
import { moduleGraph } from '../module-graph.ts';
import { socialImageSvg, type SocialImageText } from './social-image.ts';

/** The fonts the cards are drawn with (Debian's fonts-liberation, which `sans-serif` is there): given to resvg by file, so the PNG does not depend on what else is installed. */
const CARD_FONTS = ['/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'];

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

/** The hash of what draws every card: this module and what it imports, the locked packages, and the fonts (path and size). */
function drawingHash(): string {
  const fonts = CARD_FONTS.map((file) => `${file} ${statSync(file, { throwIfNoEntry: false })?.size ?? 'absent'}`);
  return createHash('sha256').update(inputsHash([...moduleGraph([new URL(import.meta.url)]), 'package-lock.json'])).update(fonts.join('\n')).digest('hex');
}

/**
 * The card of each requested page (by `id`, its URL path), rendering the ones the cache lacks;
 * returns them and how many were rendered.
 */
export async function pageCards(requests: readonly { id: string; lang: Lang; text: SocialImageText }[]): Promise<{ cards: Map<string, PageCard>; rendered: number }> {
  const folder = cacheFolderOf('cards');
  const drawing = drawingHash();
  const cards = new Map<string, PageCard>();
  let png: ((svg: string) => Buffer) | null = null;
  let rendered = 0;
  for (const { id, lang, text } of requests) {
    const hash = createHash('sha256').update(drawing).update(JSON.stringify(text)).digest('hex').slice(0, 16);
    const source = join(folder, `${hash}.png`);
    if (!existsSync(source)) {
      // Loaded only when a card is missing: the native renderer costs time to load.
      if (png === null) {
        const { Resvg } = await import('@resvg/resvg-js');
        const fontFiles = CARD_FONTS.filter((file) => existsSync(file));
        const font = { fontFiles, loadSystemFonts: fontFiles.length === 0, defaultFontFamily: 'Liberation Sans' };
        png = (svg) => Buffer.from(new Resvg(svg, { font }).render().asPng());
      }
      // Written beside, then renamed: another build reading the cache never sees half a card.
      writeFileSync(`${source}.${process.pid}`, png(socialImageSvg(text)));
      renameSync(`${source}.${process.pid}`, source);
      rendered++;
    }
    const url = `/assets/social/${lang}/${hash}.png`;
    cards.set(id, { url, file: url.slice(1), source, hash });
  }
  return { cards, rendered };
}
