/**
 * The directives of the site's Content-Security-Policy, as data: the host configs join them into
 * the header (`cli/host/security-headers.ts`), and the page on how the site treats data shows them,
 * so the page cannot list an origin the header leaves out, or the reverse.
 *
 * Browser-safe: no Node imports (the hashes are computed by the host configs).
 */

/** What the pages need beyond their own origin. */
export interface PolicyNeeds {
  /** Hash sources of every inline `<script>` that runs (not JSON data blocks). */
  scriptHashes: readonly string[];
  /** Hash sources of every inline `<style>` element. */
  styleHashes: readonly string[];
  /**
   * Origins besides their own that the pages fetch from and post forms to: the ingest service
   * when it lives elsewhere (the islands send JSON to it; without JavaScript the forms post there).
   */
  serviceOrigins: readonly string[];
}

/** One directive of the policy: its name and the sources it allows, in order. */
export interface PolicyDirective {
  name: string;
  sources: readonly string[];
}

/**
 * The policy's directives: everything from the site's own origin, inline scripts and styles only
 * by hash (no `unsafe-inline`), no plugins, no framing, forms posting only home or to the ingest
 * service.
 *
 * @example cspDirectives({ scriptHashes: ["'sha256-abc='"], styleHashes: [], serviceOrigins: [] })[1]
 * // { name: 'script-src', sources: ["'self'", "'sha256-abc='"] }
 */
export function cspDirectives({ scriptHashes, styleHashes, serviceOrigins }: PolicyNeeds): PolicyDirective[] {
  const sorted = (list: readonly string[]) => [...new Set(list)].sort();
  return [
    { name: 'default-src', sources: ["'self'"] },
    { name: 'script-src', sources: ["'self'", ...sorted(scriptHashes)] },
    { name: 'style-src', sources: ["'self'", ...sorted(styleHashes)] },
    { name: 'img-src', sources: ["'self'", 'data:'] },
    { name: 'font-src', sources: ["'self'"] },
    { name: 'connect-src', sources: ["'self'", ...sorted(serviceOrigins)] },
    { name: 'manifest-src', sources: ["'self'"] },
    { name: 'object-src', sources: ["'none'"] },
    { name: 'base-uri', sources: ["'self'"] },
    { name: 'form-action', sources: ["'self'", ...sorted(serviceOrigins)] },
    { name: 'frame-ancestors', sources: ["'none'"] },
  ];
}

/**
 * The origins besides the site's own that the pages talk to: the ingest service's, when site.json's
 * `ingestUrl` is an absolute URL on another origin; none when it is a path (`/api`) on the site.
 *
 * @example serviceOriginsOf('https://www.maskwise.io', '/api')                          // []
 * @example serviceOriginsOf('https://www.maskwise.io', 'https://forms.maskwise.io/api') // ['https://forms.maskwise.io']
 */
export function serviceOriginsOf(siteUrl: string, ingestUrl: string): string[] {
  const ingest = /^https?:\/\//.test(ingestUrl) ? new URL(ingestUrl).origin : null;
  return ingest && ingest !== new URL(siteUrl).origin ? [ingest] : [];
}
