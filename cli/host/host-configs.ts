import { headersFile, redirectsFile } from './static-host-files.ts';
import { NGINX_CONFIG_FILE, nginxConfig } from './nginx.ts';
import type { Lang } from '../site/languages.ts';
import { fileForPath, notFoundPath, type RenderedRoute } from '../site/routes.ts';
import { serviceOriginsOf } from '../site/content-security-policy.ts';
import { contentSecurityPolicy, inlineHashes, securityHeaders } from './security-headers.ts';

/** What the host configurations are generated from. */
export interface HostConfigInput {
  siteUrl: string;
  /** The forms' API base URL from site.json (`/api`, or an absolute URL on another origin). */
  ingestUrl: string;
  routes: readonly RenderedRoute[];
  langs: readonly Lang[];
  /** The HTML of every page written, for the hashes of its inline scripts and styles. */
  html: Iterable<string>;
  /** Whether the build wrote `/manifest.webmanifest`. */
  manifest?: boolean;
}

/** The host configuration files of a build: those published with the site, by output path, and the deployment files, by name in the deployment folder. */
export interface HostConfigs {
  /** `_headers` and `_redirects`, which Netlify and Cloudflare Pages read from the site's folder (and do not serve). */
  published: Record<string, string>;
  /** `nginx.conf`, for the operator's server only: written beside the output (`deployDirOf`), never into it. */
  deploy: Record<string, string>;
}

/**
 * The host configuration files of a build: `_headers` and `_redirects` (Netlify, Cloudflare
 * Pages) published with the site, and `nginx.conf` (an nginx server block) for the deployment
 * folder. All come from the routes table and one set of security headers, whose
 * Content-Security-Policy allows exactly the inline scripts and styles the pages contain, by hash.
 */
export function hostConfigs(input: HostConfigInput): HostConfigs {
  const serviceOrigins = serviceOriginsOf(input.siteUrl, input.ingestUrl);
  const headers = securityHeaders(contentSecurityPolicy({ ...inlineHashes(input.html), serviceOrigins }));
  const pages = input.routes.map((r) => ({ path: r.path, file: fileForPath(r.path) }));
  const notFoundPages = input.langs.map((lang) => {
    const path = notFoundPath(lang);
    return { prefix: path.slice(0, -'/404'.length) || '/', file: fileForPath(path) };
  });
  return {
    published: { _headers: headersFile(headers), _redirects: redirectsFile(pages, notFoundPages) },
    deploy: { [NGINX_CONFIG_FILE]: nginxConfig({ serverName: new URL(input.siteUrl).hostname, pages, notFoundPages, headers, manifest: input.manifest }) },
  };
}
