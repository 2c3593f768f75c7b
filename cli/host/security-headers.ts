import { createHash } from 'node:crypto';
import { inlineScripts } from '../verify/html-scan.ts';
import { cspDirectives, type PolicyNeeds } from '../site/content-security-policy.ts';

/**
 * The HTTP headers every host of the built site sends, in one place: the nginx config, the
 * `_headers` file and the local static server all read these values.
 */

/** Cache-Control for content-hashed files (`/assets/…`): cached for a year, never revalidated. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control for everything else (pages, icons, sitemap): kept, but revalidated on each use. */
export const REVALIDATE_CACHE = 'no-cache';
/** The URL prefix of content-hashed files. */
export const HASHED_ASSETS_PREFIX = '/assets/';

/**
 * HSTS: the generated nginx config serves the site over HTTPS only and sends it on every answer,
 * as `_headers` does for the static hosts, which serve HTTPS (a browser that saw it refuses plain
 * HTTP for a year). The local servers, plain HTTP, leave it out.
 */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Cache-Control for a URL path: immutable for hashed assets, revalidated for the rest. */
export function cacheControlFor(path: string): string {
  return path.startsWith(HASHED_ASSETS_PREFIX) ? IMMUTABLE_CACHE : REVALIDATE_CACHE;
}

/**
 * A CSP hash source for an inline script or style: the SHA-256 of its exact text.
 *
 * @example hashSource('console.log(1)') // "'sha256-…='"
 */
export function hashSource(inlineText: string): string {
  return `'sha256-${createHash('sha256').update(inlineText, 'utf8').digest('base64')}'`;
}

/**
 * The Content-Security-Policy of the site, as one header value: the directives of
 * `cspDirectives` (cli/site/content-security-policy.ts), which the data-handling page shows too.
 *
 * @example contentSecurityPolicy({ scriptHashes: ["'sha256-abc='"], styleHashes: [], serviceOrigins: [] })
 * // "default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self'; …"
 */
export function contentSecurityPolicy(needs: PolicyNeeds): string {
  return cspDirectives(needs).map(({ name, sources }) => [name, ...sources].join(' ')).join('; ');
}

/**
 * The hash sources a set of built pages needs: every executable inline script and every inline
 * style element, each counted once.
 */
export function inlineHashes(htmlPages: Iterable<string>): Pick<PolicyNeeds, 'scriptHashes' | 'styleHashes'> {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const isData = (attrs: Readonly<Record<string, string>>) => /^application\/(ld\+)?json$/i.test(attrs.type ?? '');
  for (const html of htmlPages) {
    for (const script of inlineScripts(html, (attrs) => !isData(attrs))) scripts.add(hashSource(script));
    for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) styles.add(hashSource(match[1]!));
  }
  return { scriptHashes: [...scripts], styleHashes: [...styles] };
}

/**
 * The security headers of every answer (names lower-case), given the page's CSP. HSTS is not
 * among them: see `HSTS`.
 */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'cross-origin-opener-policy': 'same-origin',
  };
}
