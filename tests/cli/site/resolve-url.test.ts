import { describe, expect, it } from 'vitest';
import { resolveUrl } from '../../../cli/site/resolve-url.ts';
import { allRoutes, fileForPath } from '../../../cli/site/routes.ts';

const files = new Set([
  ...allRoutes().map((r) => fileForPath(r.path)),
  ...['404.html', 'de/404.html', 'assets/styles.abc.css', 'sitemap.xml', '_headers', '_redirects', '_deploy/nginx.conf', '.sitegen-output'],
]);
const exists = (file: string) => files.has(file);

describe('resolveUrl', () => {
  it.each(allRoutes().map((r) => r.path))('serves %s as it is', (path) => {
    expect(resolveUrl(path, exists)).toEqual({ type: 'file', file: fileForPath(path), status: 200 });
  });

  it.each([
    ['/DE/Impressum', '/de/impressum'],
    ['/About', '/about'],
    ['/ES', '/es'],
    ['/about/', '/about'],
    ['/de/about.html', '/de/about'],
    ['/index.html', '/'],
    ['/Aviso-Legal', '/aviso-legal'],
    ['//about/', '/about'],
    ['//about', '/about'],
    ['/de//impressum', '/de/impressum'],
    ['/about//', '/about'],
    ['//', '/'],
  ])('redirects %s to the canonical %s', (path, location) => {
    expect(resolveUrl(path, exists)).toEqual({ type: 'redirect', location, status: 308 });
  });

  it.each([
    ['/de/unbekannt', 'de/404.html'],
    ['/DE/Unbekannt', 'de/404.html'],
    ['/nope', '404.html'],
    ['/xx/about', '404.html'],
    ['/de/404', 'de/404.html'],
    ['/../etc/passwd', '404.html'],
    ['/%E0%A4%A', '404.html'],
    ['/_headers', '404.html'],
    ['/_deploy/nginx.conf', '404.html'],
    ['/.sitegen-output', '404.html'],
    ['//evil.example', '404.html'],
    ['//127.0.0.1:8787/api/x', '404.html'],
    ['/\\evil.example/about', '404.html'],
    ['//de/unbekannt', 'de/404.html'],
    ['//assets/styles.abc.css', '404.html'],
  ])('answers %s with the 404 page %s', (path, file) => {
    expect(resolveUrl(path, exists)).toEqual({ type: 'notFound', file, status: 404 });
  });

  it('serves assets by their exact name', () => {
    expect(resolveUrl('/assets/styles.abc.css', exists)).toEqual({ type: 'file', file: 'assets/styles.abc.css', status: 200 });
    expect(resolveUrl('/sitemap.xml', exists).type).toBe('file');
  });

  it('regression: `//evil.example` and `//about/` are never the home page; an empty segment is a 308 to the clean page or a 404', () => {
    expect(resolveUrl('//evil.example', exists)).toEqual({ type: 'notFound', file: '404.html', status: 404 });
    expect(resolveUrl('//about/', exists)).toEqual({ type: 'redirect', location: '/about', status: 308 });
  });

  it('regression: a path of 200,000 slashes before a name resolves in one pass, not with a backtracking trailing-slash regular expression', () => {
    // The old `replace(/\/+$/, '')` took about 2 s for 16,000 slashes and grew with the square of the length.
    expect(resolveUrl(`/a${'/'.repeat(200_000)}x`, exists)).toEqual({ type: 'notFound', file: '404.html', status: 404 });
    expect(resolveUrl(`/about${'/'.repeat(200_000)}`, exists)).toEqual({ type: 'redirect', location: '/about', status: 308 });
  });
});
