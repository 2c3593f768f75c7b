import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseRedirectScript } from '../../../cli/host/case-redirect.ts';
import { inlineScripts } from '../../../cli/verify/html-scan.ts';
import { headersFile, headersForPath, parseHeadersFile } from '../../../cli/host/static-host-files.ts';
import { equivalentFormsPattern } from '../../../cli/host/nginx.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { resolveUrl } from '../../../cli/site/resolve-url.ts';
import { allRoutes, fileForPath, notFoundPath } from '../../../cli/site/routes.ts';
import { hashSource } from '../../../cli/host/security-headers.ts';
import { hostConfigs } from '../../../cli/host/host-configs.ts';
import { deployDirOf } from '../../../cli/host/deploy-files.ts';
import { NGINX_DEFAULTS } from '../../../cli/host/nginx.ts';
import { builtSite, readBuilt } from '../../helpers/built-site.ts';

const routes = allRoutes();
const files = new Set([...routes.map((r) => fileForPath(r.path)), '404.html', 'de/404.html']);
const exists = (file: string) => files.has(file);

/** Other spellings a visitor or an old link may use for a page. */
function spellings(path: string): string[] {
  const upper = path.toUpperCase();
  const title = path.replace(/\/(\w)/g, (_m, c: string) => `/${c.toUpperCase()}`);
  return path === '/' ? ['/index', '/index.html', '/INDEX.HTML', '/Index'] : [upper, title, `${path}/`, `${path}//`, `${path}.html`, `${title}.HTML`, `${path}/index`, `${path}/index.html`];
}

describe('the nginx map of other spellings', () => {
  it.each(routes.map((r) => [r.path]))('sends every other spelling of %s where resolveUrl does, and nothing else', (path) => {
    const pattern = new RegExp(equivalentFormsPattern(path), 'i');
    for (const spelling of spellings(path)) {
      expect(pattern.test(spelling), spelling).toBe(true);
      // nginx merges repeated slashes before the map sees the path.
      expect(resolveUrl(spelling.replace(/\/\/+/g, '/'), exists), spelling).toEqual({ type: 'redirect', location: path, status: 308 });
    }
    for (const other of routes.map((r) => r.path).filter((p) => p !== path)) expect(pattern.test(other), other).toBe(false);
    for (const unknown of [`${path}x`, `${path}.htm`, `${path}/other`, `/x${path}`]) {
      expect(pattern.test(unknown.replace('//', '/')), unknown).toBe(false);
    }
  });
});

describe('_headers', () => {
  const headers = { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'nosniff' };

  it('gives every URL the security headers and HSTS, and hashed assets a year of immutable caching', () => {
    const rules = parseHeadersFile(headersFile(headers));
    const hsts = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' };
    expect(headersForPath(rules, '/de/about')).toEqual({ ...headers, ...hsts });
    expect(headersForPath(rules, '/assets/islands/react.abc.js')).toEqual({ ...headers, ...hsts, 'cache-control': 'public, max-age=31536000, immutable' });
  });
});

describe('the 404 pages\' redirect for hosts without rewrite rules', () => {
  const script = caseRedirectScript(routes.map((r) => r.path));
  function visit(pathname: string, search = '', hash = ''): string | null {
    let target: string | null = null;
    const location = { pathname, search, hash, replace: (url: string) => (target = url) };
    new Function('location', script)(location);
    return target;
  }

  it.each([
    ['/DE/Impressum', '/de/impressum'],
    ['/De/Impressum/', '/de/impressum'],
    ['/about.html', '/about'],
    ['/INDEX.html', '/'],
    ['/Aviso-Legal', '/aviso-legal'],
    ['/ES/Privacidad', '/es/privacidad'],
  ])('sends %s to %s', (from, to) => {
    expect(visit(from)).toBe(to);
  });

  it('keeps the query and the fragment', () => {
    expect(visit('/FR/Contact', '?ref=mail', '#form')).toBe('/fr/contact?ref=mail#form');
  });

  it('leaves unknown URLs on the 404 page', () => {
    for (const path of ['/de/unbekannt', '/DE/Nope', '/de/about/x', '/%E0%A4%A']) expect(visit(path)).toBeNull();
  });
});

describe('host configuration files of the real build', () => {
  let outDir = '';
  beforeAll(async () => {
    ({ outDir } = await builtSite());
  });

  it('regression: publishes nothing meant for the operator: no nginx.conf, and no file names the internal upstream, paths or certificate (dist/_deploy/nginx.conf was served by Netlify and Cloudflare Pages)', () => {
    const files = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(outDir.length + 1));
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => /(^|\/)(_deploy|nginx\.conf)/.test(file))).toEqual([]);
    const internal = [NGINX_DEFAULTS.upstream, NGINX_DEFAULTS.root, NGINX_DEFAULTS.certificate, NGINX_DEFAULTS.certificateKey, 'maskwise_ingest'];
    for (const file of files.filter((f) => /\.(html|txt|xml|json|webmanifest|js|css|svg)$|^_/.test(f))) {
      const text = readFileSync(join(outDir, file), 'utf8');
      for (const secret of internal) expect(text.includes(secret), `${file} names ${secret}`).toBe(false);
    }
    // The server block is beside the site, for the operator's server only.
    expect(readFileSync(join(deployDirOf(outDir), 'nginx.conf'), 'utf8')).toContain(`server ${NGINX_DEFAULTS.upstream};`);
  });

  it('_headers sends /.well-known/security.txt as text/plain; charset=utf-8, with the security headers', () => {
    const headers = headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/.well-known/security.txt');
    expect(headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/robots.txt')['content-type']).toBeUndefined();
  });

  it('regression: _headers sends HSTS on every URL, as a header, not a comment (Netlify and Cloudflare Pages serve HTTPS)', () => {
    const rules = parseHeadersFile(readBuilt(outDir, '_headers'));
    for (const path of ['/', '/de/impressum', '/assets/styles.css', '/404.html']) {
      expect(headersForPath(rules, path)['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    }
    expect(readBuilt(outDir, '_headers')).toMatch(/^  Strict-Transport-Security: max-age=31536000; includeSubDomains$/m);
  });

  it('allows exactly the inline scripts of the pages, by hash, and no unsafe-inline', () => {
    const csp = headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/')['content-security-policy'] ?? '';
    expect(csp).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
    expect(csp).not.toContain('unsafe-inline');
    const pages = [...routes.map((r) => fileForPath(r.path)), ...LANGUAGES.map((l) => fileForPath(notFoundPath(l)))];
    const needed = new Set<string>();
    for (const file of pages) {
      for (const script of inlineScripts(readBuilt(outDir, file), (a) => !/json/.test(a.type ?? ''))) needed.add(hashSource(script));
    }
    const allowed = csp.match(/script-src ([^;]*)/)![1]!.split(' ').filter((s) => s.startsWith("'sha256-"));
    expect(allowed.sort()).toEqual([...needed].sort());
    expect(needed.size).toBe(2); // the island loader and the 404 pages' redirect (each contact page has its reason in its HTML)
  });

  it('lets the pages fetch from and post forms to the ingest service when it lives on another origin, and only then', () => {
    const csp = (ingestUrl: string) => {
      const files = hostConfigs({ siteUrl: 'https://www.example.org', ingestUrl, routes: allRoutes(['en']), langs: ['en'], html: [] });
      return headersForPath(parseHeadersFile(files.published._headers!), '/')['content-security-policy'] ?? '';
    };
    expect(csp('https://forms.example.org/api')).toContain("connect-src 'self' https://forms.example.org;");
    // Without JavaScript the newsletter form posts there itself.
    expect(csp('https://forms.example.org/api')).toContain("form-action 'self' https://forms.example.org;");
    for (const sameOrigin of ['/api', 'https://www.example.org/api']) {
      expect(csp(sameOrigin)).toContain("connect-src 'self';");
      expect(csp(sameOrigin)).toContain("form-action 'self';");
    }
  });

  it('serves no inline style attributes, so style-src needs no unsafe-inline either', () => {
    for (const route of routes) expect(readBuilt(outDir, fileForPath(route.path)), route.path).not.toMatch(/\sstyle="/);
  });

  it('writes an nginx server block with a location and a case map entry per page, and each language\'s 404', () => {
    const conf = readBuilt(deployDirOf(outDir), 'nginx.conf');
    for (const route of routes) {
      expect(conf).toContain(
        `location = ${route.path} { if ($maskwise_empty_segment) { return 308 ${route.path}$is_args$args; } try_files /${fileForPath(route.path)} =404; }`,
      );
      const key = `"~*${equivalentFormsPattern(route.path).replace(/\\/g, '\\\\')}"`;
      expect(conf.split('\n').some((line) => line.trim().startsWith(key) && line.trim().endsWith(` "${route.path}";`)), route.path).toBe(true);
    }
    expect(conf).toContain('"~*^/de(?:/|$)" "/de/404.html";');
    expect(conf).toContain('default "/404.html";');
    expect(conf).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    // A path with an empty segment (//about): 308 to the page in its exact location, 404 anywhere else.
    expect(conf).toContain('"~*^[^?]*(?:/|%2f)(?:/|%2f)" 1;');
    expect(conf.match(/if \(\$maskwise_empty_segment\) \{ return 404; \}/g)).toHaveLength(2);
    // HTTPS only: HSTS on every answer, plain HTTP nothing but a redirect.
    expect(conf).toMatch(/^    add_header Strict-Transport-Security "max-age=\d+[^"]*" always;/m);
    expect(conf).toContain('    listen 443 ssl;  # set for your host');
    // The redirect goes to the site's own host, never the client's Host header.
    expect(conf).toMatch(/^    return 308 https:\/\/[a-z0-9.-]+\$request_uri;/m);
    expect(conf).not.toContain('$host$request_uri');
    expect(conf).toContain('    ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:');
  });

  it('writes _redirects for trailing slashes and the language 404 pages, most specific first', () => {
    const redirects = readBuilt(outDir, '_redirects');
    expect(redirects).toContain('/de/impressum/  /de/impressum  308');
    expect(redirects.indexOf('/de/*  /de/404.html  404')).toBeLessThan(redirects.indexOf('/*  /404.html  404'));
    expect(redirects).not.toMatch(/^\/\/ /m);
  });

  it('writes gzip and brotli copies beside the pages, the stylesheet and the island scripts', async () => {
    const { result } = await builtSite();
    for (const file of ['index.html', 'de/impressum.html', result.assets.css.slice(1), ...result.assets.islands.filter((f) => f.bytes > 1024).map((f) => f.file)]) {
      const original = readBuilt(outDir, file);
      expect(gunzipSync(readFileSync(`${outDir}/${file}.gz`)).toString(), file).toBe(original);
      expect(brotliDecompressSync(readFileSync(`${outDir}/${file}.br`)).toString(), file).toBe(original);
    }
  });
});
