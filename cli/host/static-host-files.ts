import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import { HASHED_ASSETS_PREFIX, HSTS, IMMUTABLE_CACHE } from './security-headers.ts';

/**
 * `_headers` and `_redirects`: the rule files that Netlify- and Cloudflare-Pages-style static
 * hosts read from the site's root folder, and a reader for `_headers` so the local static server
 * sends exactly what such a host would.
 */

/** One block of a `_headers` file: a URL pattern (`/*` splats allowed) and its headers. */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
}

const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * The `_headers` file: the security headers and HSTS on every URL, a year of immutable caching for
 * content-hashed assets, security.txt as `text/plain; charset=utf-8` (RFC 9116). Pages keep the
 * hosts' default Cache-Control, which revalidates (`public, max-age=0, must-revalidate` on Netlify
 * and Cloudflare Pages).
 */
export function headersFile(headers: Readonly<Record<string, string>>): string {
  return [
    '# Response headers for static hosts that read `_headers` (Netlify, Cloudflare Pages), written by',
    '# `sitegen build`. Do not edit: rebuild. Both hosts serve HTTPS (and redirect plain HTTP to it),',
    '# so every answer carries HSTS.',
    '/*',
    ...Object.entries(headers).map(([name, value]) => `  ${titleCase(name)}: ${value}`),
    `  Strict-Transport-Security: ${HSTS}`,
    `${HASHED_ASSETS_PREFIX}*`,
    `  Cache-Control: ${IMMUTABLE_CACHE}`,
    SECURITY_TXT_PATH,
    '  Content-Type: text/plain; charset=utf-8',
    '',
  ].join('\n');
}

/**
 * The `_redirects` file: the trailing-slash form of every page → its clean URL (308), and unknown
 * URLs under a language prefix → that language's 404 page with status 404 (Netlify). Letter case
 * cannot be listed; the 404 pages' script sends wrong-case URLs to their page.
 *
 * @example redirectsFile([{ path: '/de' }], [{ prefix: '/de', file: 'de/404.html' }, { prefix: '/', file: '404.html' }])
 * // '…/de/  /de  308\n/de/*  /de/404.html  404\n/*  /404.html  404\n'
 */
export function redirectsFile(pages: readonly { path: string }[], notFoundPages: readonly { prefix: string; file: string }[]): string {
  const lines = [
    '# Redirects for static hosts that read `_redirects` (Netlify, Cloudflare Pages), written by',
    '# `sitegen build` from the routes table. Do not edit: rebuild. Both hosts already answer `/x.html`',
    '# with a redirect to `/x`.',
    ...pages.filter((p) => p.path !== '/').map((p) => `${p.path}/  ${p.path}  308`),
    '# Unknown URLs: the 404 page of their language (Netlify; Cloudflare Pages skips these lines and',
    '# serves the nearest 404.html by itself, which is the same page).',
    ...[...notFoundPages]
      .sort((a, b) => b.prefix.length - a.prefix.length)
      .map((n) => `${n.prefix === '/' ? '' : n.prefix}/*  /${n.file}  404`),
    '',
  ];
  return lines.join('\n');
}

/** Reads a `_headers` file into its rules (comments and blank lines skipped, header names lower-cased). */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule && colon > 0) rule.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/**
 * The headers the rules give a URL path: every matching rule's headers, later rules winning.
 *
 * @example headersForPath(parseHeadersFile('/*\n  X-A: 1\n/assets/*\n  X-B: 2\n'), '/assets/a.css') // { 'x-a': '1', 'x-b': '2' }
 */
export function headersForPath(rules: readonly HeaderRule[], path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) {
    const pattern = new RegExp(`^${rule.pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (pattern.test(path)) Object.assign(headers, rule.headers);
  }
  return headers;
}
