import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadContentPages } from '../site/markdown/content-pages.ts';
import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import type { Problem } from '../site/errors.ts';
import { siteRoutes } from '../site/routes.ts';

/** Files the build writes besides pages, which links may also point to. */
const STATIC_FILES = ['/sitemap.xml', '/robots.txt', '/favicon.svg', SECURITY_TXT_PATH];

function filesUnder(dir: string, extensions: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, extensions);
    return extensions.test(entry.name) ? [path] : [];
  });
}

/** The site-internal link targets written literally in a file, with their lines. */
function internalLinks(source: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  source.split('\n').forEach((text, index) => {
    const patterns = [/\]\((\/[^)\s]*)\)/g, /href=["'{`]+(\/[^"'`}\s]*)/g, /href=\\"(\/[^\\"]*)\\"/g];
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const target = match[1]!;
        if (!target.startsWith('//')) links.push({ target, line: index + 1 });
      }
    }
  });
  return links;
}

/**
 * Finds internal links in content (Markdown, strings) and templates that resolve to no route of
 * the site (the pages added as Markdown included): a typo in `/de/datenschutz` would otherwise
 * only show up as a visitor's 404.
 */
export function checkLinks(contentDir: string, templatesDir: string, root: string): Problem[] {
  const routes = siteRoutes(loadContentPages(contentDir).pages);
  const known = new Set([...routes.allRoutes().map((r) => r.path), ...STATIC_FILES]);
  const problems: Problem[] = [];
  for (const dir of [contentDir, templatesDir]) {
    for (const path of filesUnder(dir, /\.(md|json|tsx?)$/)) {
      for (const { target, line } of internalLinks(readFileSync(path, 'utf8'))) {
        const bare = target.split(/[?#]/)[0] || '/';
        if (!known.has(bare) && !bare.startsWith('/assets/')) {
          problems.push({ code: 'link_to_no_route', file: relative(root, path), line, message: `link ${target} resolves to no route` });
        }
      }
    }
  }
  return problems;
}
