import { fileForPath, langOfPath, notFoundPath } from './routes.ts';

/** What the server should do with a request path. */
export type Resolution =
  | { type: 'file'; file: string; status: 200 }
  | { type: 'redirect'; location: string; status: 308 }
  | { type: 'notFound'; file: string; status: 404 };

/**
 * Decides how a request path is answered from the built `dist/` folder, given a way to ask
 * whether a file exists. Clean URLs without trailing slash; any other letter case, a trailing
 * slash or a `.html` suffix redirect to the canonical URL; unknown paths get the 404 page of
 * their language, and so do the host configuration files and dotfiles of the folder.
 *
 * @example resolveUrl('/DE/Impressum', exists) // { type: 'redirect', location: '/de/impressum', status: 308 }
 * @example resolveUrl('/de/nope', exists)      // { type: 'notFound', file: 'de/404.html', status: 404 }
 */
export function resolveUrl(pathname: string, exists: (file: string) => boolean): Resolution {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    path = pathname;
  }
  const notFound = (): Resolution => ({ type: 'notFound', file: fileForPath(notFoundPath(langOfPath(path))), status: 404 });
  if (path.includes('\0') || path.split('/').some((segment) => segment === '..')) return notFound();

  // Static files (assets, sitemap, favicon) are served exactly as named; the host configuration
  // (`_headers`, `_redirects`, `_deploy/`) and dotfiles are not published.
  const asFile = path.slice(1);
  const published = !asFile.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'));
  if (asFile && published && !asFile.endsWith('.html') && exists(asFile)) return { type: 'file', file: asFile, status: 200 };

  let canonical = path.toLowerCase();
  if (canonical.endsWith('.html')) canonical = canonical.slice(0, -'.html'.length);
  if (canonical.endsWith('/index')) canonical = canonical.slice(0, -'/index'.length) || '/';
  if (canonical.length > 1) canonical = canonical.replace(/\/+$/, '') || '/';
  if (/^\/(404|[a-z]{2}\/404)$/.test(canonical)) return notFound();

  const file = fileForPath(canonical);
  if (!exists(file)) return notFound();
  if (canonical !== path) return { type: 'redirect', location: canonical, status: 308 };
  return { type: 'file', file, status: 200 };
}
