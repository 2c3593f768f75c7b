import { gzipSync } from 'node:zlib';

/** How much a page's first render needs, in gzip bytes. */
export interface FirstRender {
  /** The HTML from the start to the end of the first section of `<main>` (the hero): the first screen. */
  htmlGzip: number;
  /** Stylesheets and classic scripts in `<head>` that block rendering until they have loaded. */
  blocking: string[];
}

/** The TCP initial congestion window: what arrives in the first round trip (10 segments). */
export const FIRST_ROUND_TRIP_BYTES = 14 * 1024;

/**
 * What the first screen of a page needs before it can be painted: the gzip size of the HTML up to
 * the end of the first section of `<main>`, and the resources in `<head>` that block rendering
 * (each of which would cost further round trips).
 */
export function firstRender(html: string): FirstRender {
  const main = html.indexOf('<main');
  const sectionEnd = main < 0 ? -1 : html.indexOf('</section>', main);
  const end = sectionEnd < 0 ? html.length : sectionEnd + '</section>'.length;
  const head = html.slice(0, html.indexOf('</head>'));
  const blocking = [
    ...[...head.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].filter((m) => !/\bmedia="print"/.test(m[0])).map((m) => m[0].match(/href="([^"]*)"/)?.[1] ?? '?'),
    ...[...head.matchAll(/<script\b[^>]*\bsrc="([^"]*)"[^>]*>/g)].filter((m) => !/\b(async|defer|type="module")/.test(m[0])).map((m) => m[1]!),
  ];
  return { htmlGzip: gzipSync(html.slice(0, end), { level: 9 }).length, blocking };
}
