import { ERROR_CODES, type ErrorCode } from '../../ingest/contract/error-codes.ts';
import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import { LIMITS } from '../../ingest/contract/schemas.ts';
import { SERVICE_PAGES } from '../../ingest/contract/service-pages.ts';
import { API_BASE, FORM_CONTENT_TYPE, FORM_FALLBACK_PAGES, PRIVATE_API_PATTERN, REFERER_LANG_PATTERN, TOKEN_FORM_PATH } from './api-forwarding.ts';
import { HASHED_ASSETS_PREFIX, HSTS, IMMUTABLE_CACHE, REVALIDATE_CACHE } from './security-headers.ts';
import { TLS12_CIPHERS } from './tls-ciphers.ts';

/** The generated server block's name in the deployment folder (`deployDirOf`: `dist-deploy/nginx.conf`), never in the published one. */
export const NGINX_CONFIG_FILE = 'nginx.conf';

/** The values an operator sets for their host; the build writes these defaults. */
export const NGINX_DEFAULTS = {
  listen: '443 ssl',
  httpListen: '80',
  certificate: '/etc/ssl/certs/maskwise.pem',
  certificateKey: '/etc/ssl/private/maskwise.key',
  root: '/srv/maskwise/dist',
  upstream: '127.0.0.1:8787',
  accessLog: '/var/log/nginx/access.log',
} as const;

/** What the server block is generated from. */
export interface NginxSite {
  /** The site's host name (from its URL): `server_name`, and where plain HTTP redirects to, e.g. `www.maskwise.io`. */
  serverName: string;
  /** Every page URL (lower-case, canonical form of itself) and the file that holds it. */
  pages: readonly { path: string; file: string }[];
  /** The 404 page of each language: URL prefix (`/de`, or `/` for the default) and file. */
  notFoundPages: readonly { prefix: string; file: string }[];
  /** Security headers for every answer, names lower-case (see `securityHeaders`). */
  headers: Readonly<Record<string, string>>;
  /** Whether the build wrote a web app manifest at `/manifest.webmanifest`. */
  manifest?: boolean;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
const addHeaders = (headers: Readonly<Record<string, string>>, indent: string) =>
  Object.entries(headers).map(([name, value]) => `${indent}add_header ${titleCase(name)} ${quote(value)} always;`);

/**
 * The uniform error body of the service for `code`, as an nginx single-quoted string (the JSON
 * clients' answer when nginx answers in the service's place).
 */
function errorBodyString(code: ErrorCode): string {
  const body = JSON.stringify({ error: { code, message: ERROR_CODES[code].message } });
  if (/['\\$]/.test(body)) throw new Error(`the ${code} message cannot be written into nginx.conf as it is: ${body}`);
  return `'${body}'`;
}

/**
 * A named location answering in the service's place (a body too large, the service down): a
 * plain form post is sent to the page of the form's language that says so (303, language from
 * the Referer), a JSON client gets the service's error shape; never cached, never indexed, with
 * the site's security headers.
 */
function fallbackLocation(name: string, headers: Readonly<Record<string, string>>, page: keyof typeof SERVICE_PAGES, json: { status: number; code: ErrorCode }): string[] {
  return [
    `    location ${name} {`,
    ...addHeaders({ ...headers, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' }, '        '),
    `        if ($maskwise_form_post) { return 303 $maskwise_form_lang${SERVICE_PAGES[page]}; }`,
    '        default_type application/json;',
    `        return ${json.status} ${errorBodyString(json.code)};`,
    '    }',
  ];
}

/**
 * The regular expression (case-insensitive) matching every other spelling of a page's URL that
 * should answer 308 to it: any letter case, trailing slashes, `.html`, `/index`, `/index.html`.
 * The same rules as `resolveUrl`, written for nginx's `map`.
 *
 * @example equivalentFormsPattern('/de/about') // '^/de/about(?:\\.html|/index(?:\\.html)?|/+)?$'
 * @example equivalentFormsPattern('/')         // '^/(?:index(?:\\.html)?)?$'
 */
export function equivalentFormsPattern(path: string): string {
  return path === '/' ? '^/(?:index(?:\\.html)?)?$' : `^${escapeRegex(path)}(?:\\.html|/index(?:\\.html)?|/+)?$`;
}

/**
 * Matches a request URI whose path (before `?`) has an empty segment, `%2F` counting as a slash
 * as it does for the local server; nginx's `$request_uri` is the visitor's spelling, unmerged.
 */
const EMPTY_SEGMENT_PATTERN = '~*^[^?]*(?:/|%2f)(?:/|%2f)';

/**
 * The exact-match location of a page: its file at the clean URL, and a 308 there when the
 * visitor's spelling had an empty segment (`//about`, which nginx would otherwise serve as is).
 *
 * @example pageLocation({ path: '/about', file: 'about.html' })
 * // 'location = /about { if ($maskwise_empty_segment) { return 308 /about$is_args$args; } try_files /about.html =404; }'
 */
function pageLocation(page: { path: string; file: string }): string {
  return `location = ${page.path} { if ($maskwise_empty_segment) { return 308 ${page.path}$is_args$args; } try_files /${page.file} =404; }`;
}

/** Matches a request URI or Referer whose query carries a token; group 1 is its path. */
const TOKEN_QUERY_PATTERN = '~^([^?]*)\\?(?:[^#]*&)?token=';

/**
 * The nginx server block for the built site, to be included in the `http {}` block of an nginx
 * configuration: clean URLs without trailing slash, 308 to the canonical URL for any other
 * spelling, each language's 404 page with status 404, immutable caching for hashed assets and
 * revalidation for the rest, gzip (and the `.gz` files written beside each text file), the
 * security headers, and `/api/` proxied to the ingest service, together with the POSTs of the
 * token form pages (`TOKEN_FORM_PAGES`, to their endpoint under `/api`) and never
 * `/api/metrics`. Where nginx answers a form post in the service's place (a body over the
 * service's limit, the service down), a visitor without JavaScript is sent to the result page
 * that says so (`FORM_FALLBACK_PAGES`); the access log leaves out the links' tokens.
 */
export function nginxConfig(site: NginxSite): string {
  const width = Math.max(...site.pages.map((p) => equivalentFormsPattern(p.path).length)) + 6;
  const pad = (text: string, to = width) => text.padEnd(to);
  const notFound = [...site.notFoundPages].sort((a, b) => b.prefix.length - a.prefix.length);
  const defaultNotFound = notFound.find((n) => n.prefix === '/');
  const lines = [
    '# nginx server block for the MaskWise site, written by `sitegen build` from the routes table',
    '# (cli/site/routes.ts). Do not edit: rebuild. Include it inside the http {} block of nginx.conf',
    '# (which must include mime.types), e.g.',
    `#     include ${NGINX_DEFAULTS.root}-deploy/${NGINX_CONFIG_FILE};`,
    '# (sitegen build writes it beside the site\'s folder, dist-deploy/ beside dist/: never published).',
    '# and set the lines marked "set for your host": the ingest upstream, listen, server_name, the certificate and',
    '# its key, root, access_log. The site is served over HTTPS only: plain HTTP answers with a redirect.',
    '# Tested with Debian 12\'s nginx 1.22 by tests/e2e/nginx.spec.ts and tests/cli/host/nginx-forwarding.test.ts.',
    '',
    'upstream maskwise_ingest {',
    `    server ${NGINX_DEFAULTS.upstream};  # set for your host: where \`ingest serve\` listens (PORT, HOST); run it with TRUST_PROXY=127.0.0.1`,
    '    keepalive 8;',
    '}',
    '',
    '# Every other spelling of a page URL (letter case, trailing slash, .html, /index) → its canonical URL.',
    'map $uri $maskwise_canonical {',
    '    default "";',
    ...site.pages.map((p) => `    ${pad(quote(`~*${equivalentFormsPattern(p.path)}`))} ${quote(p.path)};`),
    '}',
    '',
    '# A path with an empty segment (//about, /de//impressum; nginx merges the slashes in $uri) answers',
    '# as the local server does: 308 to the clean URL when that is a page, else 404.',
    'map $request_uri $maskwise_empty_segment {',
    '    default 0;',
    `    ${quote(EMPTY_SEGMENT_PATTERN)} 1;`,
    '}',
    '',
    '# The newsletter\'s confirm and unsubscribe pages and the contact message\'s confirm page (TOKEN_FORM_PAGES',
    '# in ingest/contract/service-pages.ts) hold a form without action: without JavaScript the browser POSTs to the page\'s own URL, ?token=',
    '# included. Exactly those POSTs (the path as the visitor sent it, in any language) go to the service\'s',
    '# endpoint of the same name, without the language: POST /de/newsletter/confirm?token=… →',
    `# POST ${API_BASE}/newsletter/confirm?token=…. GET and HEAD of the pages are the static pages.`,
    'map "$request_method $request_uri" $maskwise_token_form_endpoint {',
    '    default "";',
    `    ${quote(`~^POST ${TOKEN_FORM_PATH}(?:\\?|$)`)} ${quote(`${API_BASE}$1`)};`,
    '}',
    '',
    '# The 404 page of the language an unknown URL belongs to.',
    'map $uri $maskwise_not_found {',
    `    default ${quote(`/${defaultNotFound?.file ?? '404.html'}`)};`,
    ...notFound.filter((n) => n.prefix !== '/').map((n) => `    ${quote(`~*^${escapeRegex(n.prefix)}(?:/|$)`)} ${quote(`/${n.file}`)};`),
    '}',
    '',
    '# Plain HTML form posts (JavaScript off) are answered with pages, the islands\' JSON posts with JSON.',
    'map $http_content_type $maskwise_form_post {',
    '    default 0;',
    `    ${quote(`~*^${escapeRegex(FORM_CONTENT_TYPE)}\\s*(?:;|$)`)} 1;`,
    '}',
    '',
    '# The language of the page a form was posted from, as a URL prefix ("" for English): the first',
    '# segment of its Referer (the site\'s pages send their full URL to their own origin).',
    'map $http_referer $maskwise_form_lang {',
    '    default "";',
    `    ${quote(`~${REFERER_LANG_PATTERN}`)} "/$1";`,
    '}',
    '',
    '# The access log leaves out the tokens of the mails\' links (an unsubscribe link never expires):',
    `# no query under ${API_BASE}/, nor wherever the query carries a token, in the request and in the Referer.`,
    'map $request_uri $maskwise_loggable_uri {',
    '    default $request_uri;',
    `    ${quote(`~*^(${escapeRegex(API_BASE)}/[^?]*)\\?`)} $1;`,
    `    ${quote(TOKEN_QUERY_PATTERN)} $1;`,
    '}',
    'map $http_referer $maskwise_loggable_referer {',
    '    default $http_referer;',
    `    ${quote(TOKEN_QUERY_PATTERN)} $1;`,
    '}',
    `log_format maskwise_private '$remote_addr - $remote_user [$time_local] "$request_method $maskwise_loggable_uri $server_protocol" '`,
    `                            '$status $body_bytes_sent "$maskwise_loggable_referer" "$http_user_agent"';`,
    '',
    '# Content-hashed files never change: cache them for a year. Everything else is revalidated.',
    'map $uri $maskwise_cache_control {',
    `    default ${quote(REVALIDATE_CACHE)};`,
    `    ${quote(`~^${escapeRegex(HASHED_ASSETS_PREFIX)}`)} ${quote(IMMUTABLE_CACHE)};`,
    '}',
    '',
    '# Plain HTTP only sends visitors to HTTPS, keeping the path, the query and (308) a form post\'s method,',
    '# to the site\'s own host name (the site URL\'s), never to the Host header a client sent.',
    'server {',
    `    listen ${NGINX_DEFAULTS.httpListen};  # set for your host`,
    `    server_name ${site.serverName};  # set for your host`,
    `    access_log ${NGINX_DEFAULTS.accessLog} maskwise_private;  # set for your host (as below)`,
    '    server_tokens off;',
    `    return 308 https://${site.serverName}$request_uri;  # the site URL's host (sitegen build --site-url)`,
    '}',
    '',
    'server {',
    `    listen ${NGINX_DEFAULTS.listen};  # set for your host`,
    `    server_name ${site.serverName};  # set for your host`,
    `    ssl_certificate ${NGINX_DEFAULTS.certificate};  # set for your host: the certificate chain (e.g. Let's Encrypt's fullchain.pem)`,
    `    ssl_certificate_key ${NGINX_DEFAULTS.certificateKey};  # set for your host: its private key`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    '    # TLS 1.2: forward secrecy and AEAD only (Mozilla "intermediate"); the client picks among them.',
    `    ssl_ciphers ${TLS12_CIPHERS.join(':')};`,
    '    ssl_prefer_server_ciphers off;',
    '    ssl_session_cache shared:maskwise_tls:1m;',
    `    root ${NGINX_DEFAULTS.root};  # set for your host: the folder \`sitegen build\` wrote`,
    `    access_log ${NGINX_DEFAULTS.accessLog} maskwise_private;  # set for your host: the log file (keep the format: it leaves the links\' tokens out)`,
    '    server_tokens off;',
    '    absolute_redirect off;  # Location: /de/about, whatever scheme and port the visitor used',
    '    charset utf-8;',
    '',
    '    gzip on;',
    '    gzip_vary on;',
    '    gzip_types text/css text/javascript application/javascript application/json application/manifest+json application/xml image/svg+xml text/plain;',
    '    gzip_static on;  # the build writes a .gz beside every text file',
    '    # brotli_static on;  # with the ngx_brotli static module (Debian: libnginx-mod-http-brotli-static): serves the .br files',
    '',
    '    add_header Cache-Control $maskwise_cache_control always;',
    ...Object.entries(site.headers).map(([name, value]) => `    add_header ${titleCase(name)} ${quote(value)} always;`),
    `    add_header Strict-Transport-Security ${quote(HSTS)} always;  # HTTPS only, from the first answer on`,
    '',
    '    error_page 404 $maskwise_not_found;',
    '',
    '    # A token form page\'s POST becomes a request for its endpoint, which location /api/ below forwards',
    '    # (the query kept, the body untouched); the service answers, usually 303 to a page of the site.',
    '    if ($maskwise_token_form_endpoint) { rewrite ^ $maskwise_token_form_endpoint last; }',
    '',
    '    # Each page at its clean URL.',
    ...site.pages.map((p) => `    ${pageLocation(p)}`),
    '',
    '    # The 404 pages are only shown for unknown URLs, never at their own address.',
    ...site.notFoundPages.map((n) => `    location = /${n.file} { internal; }`),
    '',
    ...(site.manifest
      ? ['    location = /manifest.webmanifest {', '        types { application/manifest+json webmanifest; }', '        try_files $uri =404;', '    }', '']
      : []),
    '    # The security contact file (RFC 9116), the one file under a dot folder, as text/plain; charset=utf-8.',
    `    location = ${SECURITY_TXT_PATH} { types { } default_type text/plain; try_files $uri =404; }`,
    '    # The static hosts\' rule files (_headers, _redirects) and other dotfiles are not published.',
    '    location ~ ^/(?:_|\\.) { return 404; }',
    '',
    '    # Page files answer only at their clean URL.',
    '    location ~* \\.html$ {',
    '        if ($maskwise_canonical) { return 308 $maskwise_canonical$is_args$args; }',
    '        return 404;',
    '    }',
    '',
    '    # Other spellings of a page redirect; other files (assets, icons, sitemap) are served as named.',
    '    location / {',
    '        if ($maskwise_canonical) { return 308 $maskwise_canonical$is_args$args; }',
    '        if ($maskwise_empty_segment) { return 404; }',
    '        try_files $uri =404;',
    '    }',
    '',
    `    # The service's metrics are for monitoring on its own port, never for the public: no ${API_BASE}/metrics… path`,
    '    # (any letter case, after nginx has decoded and normalised it) is forwarded, now or when the service adds one.',
    `    location ~* ${quote(PRIVATE_API_PATTERN)} { return 404; }`,
    '',
    '    # The forms\' service. Its answers carry its own stricter security headers; an add_header',
    '    # here replaces the site\'s headers above for this location.',
    '    location /api/ {',
    '        if ($maskwise_empty_segment) { return 404; }',
    `        client_max_body_size ${LIMITS.bodyBytes};  # the service's own limit (bytes): a larger body is answered here`,
    '        # When nginx answers in the service\'s place (a body too large; the service down or silent), a',
    '        # plain form post goes to the page that says so, in the form\'s language; see the locations below.',
    '        error_page 413 = @maskwise_too_large;',
    '        error_page 502 503 504 = @maskwise_service_down;',
    '        error_page 404 $maskwise_not_found;',
    '        proxy_pass http://maskwise_ingest;',
    '        proxy_http_version 1.1;',
    '        proxy_set_header Connection "";',
    '        proxy_set_header Host $host;',
    '        # nginx is the edge: the client address replaces any X-Forwarded-For the client sent.',
    '        # Behind a load balancer use $proxy_add_x_forwarded_for and add its address to TRUST_PROXY.',
    '        proxy_set_header X-Forwarded-For $remote_addr;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '        add_header X-Robots-Tag "noindex" always;',
    '    }',
    '',
    ...fallbackLocation('@maskwise_too_large', site.headers, FORM_FALLBACK_PAGES.tooLarge, { status: 413, code: 'payload_too_large' }),
    '',
    ...fallbackLocation('@maskwise_service_down', site.headers, FORM_FALLBACK_PAGES.serviceDown, { status: 502, code: 'unavailable' }),
    '}',
    '',
  ];
  return lines.join('\n');
}
