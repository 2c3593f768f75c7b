import { SECURITY_TXT_PATH } from './asset-paths.ts';
import { fileForPath, langOfPath, notFoundPath } from './routes.ts';

/** What the server should do with a request path. */
export type Resolution =
  | { type: 'file'; file: string; status: 200 }
  | { type: 'redirect'; location: string; status: 308 }
  | { type: 'notFound'; file: string; status: 404 };

/**
 * A path with each run of slashes made one slash, in one pass (no backtracking regular
 * expression: a path of many thousand slashes costs no more than its length).
 *
 * @example mergeSlashes('//de///about/') // '/de/about/'
 */
function mergeSlashes(path: string): string {
  let merged = '';
  for (let i = 0; i < path.length; i++) if (path[i] !== '/' || path[i - 1] !== '/') merged += path[i];
  return merged;
}

/**
 * The canonical page URL another spelling stands for: lower case, slashes merged, without
 * `.html`, `/index` or a trailing slash. Whether a page has that URL is for the caller to ask.
 *
 * @example canonicalSpelling('//DE/About.html') // '/de/about'
 * @example canonicalSpelling('/Index.html')     // '/'
 */
function canonicalSpelling(path: string): string {
  let canonical = mergeSlashes(path.toLowerCase());
  if (canonical.endsWith('.html')) canonical = canonical.slice(0, -'.html'.length);
  if (canonical.endsWith('/index')) canonical = canonical.slice(0, -'/index'.length) || '/';
  if (canonical.length > 1 && canonical.endsWith('/')) canonical = canonical.slice(0, -1);
  return canonical;
}

/**
 * Decides how a request path is answered from the built `dist/` folder, given a way to ask
 * whether a file exists. Clean URLs without trailing slash; any other letter case, a trailing
 * slash, an empty segment (`//about`), a `.html` suffix or `/index` redirect to the canonical URL
 * when it is a page; unknown paths get the 404 page of their language, and so do the host
 * configuration files and dotfiles of the folder (but `/.well-known/security.txt`). Files other
 * than pages (assets, sitemap) are served only at their exact name. Linear in the length of the path.
 *
 * @example resolveUrl('/DE/Impressum', exists) // { type: 'redirect', location: '/de/impressum', status: 308 }
 * @example resolveUrl('//about/', exists)      // { type: 'redirect', location: '/about', status: 308 }
 * @example resolveUrl('//evil.example', exists) // { type: 'notFound', file: '404.html', status: 404 }
 * @example resolveUrl('/de/nope', exists)      // { type: 'notFound', file: 'de/404.html', status: 404 }
 */
export function resolveUrl(pathname: string, exists: (file: string) => boolean): Resolution {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    path = pathname;
  }
  const notFound = (): Resolution => ({ type: 'notFound', file: fileForPath(notFoundPath(langOfPath(mergeSlashes(path)))), status: 404 });
  if (!path.startsWith('/') || path.includes('\0') || path.includes('\\') || path.split('/').some((segment) => segment === '..')) return notFound();

  // Static files (assets, sitemap, favicon) are served exactly as named; the static hosts' rule
  // files (`_headers`, `_redirects`: any `_` name) and dotfiles are not published, but for the
  // security contact file under /.well-known/.
  const asFile = path.slice(1);
  const published = path === SECURITY_TXT_PATH || !asFile.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'));
  if (asFile && published && !path.includes('//') && !asFile.endsWith('.html') && exists(asFile)) return { type: 'file', file: asFile, status: 200 };

  const canonical = canonicalSpelling(path);
  if (canonical === '/404' || /^\/[a-z]{2}\/404$/.test(canonical)) return notFound();

  const file = fileForPath(canonical);
  if (!exists(file)) return notFound();
  if (canonical !== path) return { type: 'redirect', location: canonical, status: 308 };
  return { type: 'file', file, status: 200 };
}
