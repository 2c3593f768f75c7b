/**
 * When each page last changed, for the sitemap's `<lastmod>`: the build records, with each page,
 * the hash of what a reader sees (its title, its description and its `<main>`) and the time
 * that hash last differed. A page rendered again with the same visible content (a new stylesheet
 * hash, a string it reads but does not show, the footer's year) keeps its time; a page with no
 * record (the first build, `--no-cache`, a new page) takes the build's time.
 *
 *   pageContentHash('<title>A</title>…<main id="main">Hi</main>…') // hash of "A", "", "Hi"
 *   lastChanged({ content: 'h1', changed: '2026-03-01T00:00:00Z' }, 'h1', now) // '2026-03-01T00:00:00Z'
 */
import { digest } from './page-inputs.ts';

const TITLE = /<title>([^<]*)<\/title>/;
const DESCRIPTION = /<meta name="description" content="([^"]*)"/;

/** The hash of what a reader of the page sees: its title, its description and its `<main>` element (the whole page when it has none). */
export function pageContentHash(html: string): string {
  const start = html.indexOf('<main');
  const end = html.lastIndexOf('</main>');
  const main = start >= 0 && end > start ? html.slice(start, end) : html;
  return digest(TITLE.exec(html)?.[1] ?? '', DESCRIPTION.exec(html)?.[1] ?? '', main);
}

/** A time as the sitemap writes it (W3C datetime, seconds, UTC): `2026-03-01T09:30:00Z`. */
export function w3cTime(time: Date): string {
  return `${time.toISOString().slice(0, 19)}Z`;
}

/** The time a page last changed: the previous record's when its visible content is the same, else `now`. */
export function lastChanged(previous: { content?: string | undefined; changed?: string | undefined } | undefined, content: string, now: Date): string {
  return previous?.changed !== undefined && previous.content === content ? previous.changed : w3cTime(now);
}
