/**
 * The tiny script of the 404 pages for static hosts without rewrite rules: when the unknown URL
 * is another spelling of a page (letter case, trailing slash, `.html`, `/index`), it replaces
 * the location with the page's canonical URL, by the same rules as `resolveUrl`.
 *
 * @example caseRedirectScript(['/', '/de/impressum'])
 * // on /DE/Impressum/ the browser goes to /de/impressum; on /de/nope it stays on the 404 page
 */
export function caseRedirectScript(pagePaths: readonly string[]): string {
  const paths = JSON.stringify([...new Set(pagePaths)]).replace(/</g, '\\u003c');
  return [
    `{const pages=new Set(${paths});`,
    'let path=location.pathname;try{path=decodeURIComponent(path)}catch{}',
    'path=path.toLowerCase();',
    "if(path.endsWith('.html'))path=path.slice(0,-5);",
    "if(path.endsWith('/index'))path=path.slice(0,-6)||'/';",
    "if(path.length>1)path=path.replace(/\\/+$/,'')||'/';",
    'if(pages.has(path)&&path!==location.pathname)location.replace(path+location.search+location.hash)}',
  ].join('');
}
