/**
 * The per-page checks (axe, then overflow at four widths, in one visit a page) run one test per
 * language, each page a step of its own with soft assertions named after the page: a browser
 * context and its fixtures are set up 7 times instead of 600, and a failure still names every
 * page that fails, not just the first.
 */
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';

/** Site paths grouped by their language: `['/', '/de/about', '/about']` → `[['en', ['/', '/about']], ['de', ['/de/about']]]`. */
export function pagesByLanguage(paths: readonly string[]): Array<[Lang, string[]]> {
  const groups = new Map<Lang, string[]>(LANGUAGES.map((lang) => [lang, []]));
  for (const path of paths) {
    const first = path.split('/')[1] as Lang;
    groups.get(first !== 'en' && LANGUAGES.includes(first) ? first : 'en')!.push(path);
  }
  return [...groups].filter(([, group]) => group.length > 0);
}

/** How long a test of `pages` page checks may take: the default 30 s a page, as when each page was a test. */
export const timeoutFor = (pages: number): number => pages * 30_000;
