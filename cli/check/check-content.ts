import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkDataFacts } from './data-facts.ts';
import { checkLinks } from './links.ts';
import { checkOutdated } from './outdated.ts';
import { checkPages } from './pages.ts';
import { checkSeo } from './seo.ts';
import type { Problem } from '../site/errors.ts';
import { checkTranslations } from './translations.ts';
import { checkTypography } from './typography.ts';
import { jsonKeyLines } from '../site/json-lines.ts';
import { LANGUAGES } from '../site/languages.ts';
import { PLACEHOLDER_NAMES, siteConfigSchema } from '../site/site-config.ts';

export interface CheckResult {
  /** What must be fixed (exit 1). */
  problems: Problem[];
  /** What is worth knowing but publishes fine: a page some languages lack, a translation of an older English text. */
  warnings: Problem[];
  languages: number;
  keys: number;
  pages: number;
}


function checkSiteConfig(contentDir: string, root: string): Problem[] {
  const path = join(contentDir, 'site.json');
  const file = relative(root, path);
  let text: string;
  let raw: unknown;
  try {
    text = readFileSync(path, 'utf8');
    raw = JSON.parse(text);
  } catch (error) {
    return [{ code: 'content_unreadable', file, line: 1, message: `cannot be read as JSON: ${(error as Error).message}` }];
  }
  const parsed = siteConfigSchema.safeParse(raw);
  if (parsed.success) return [];
  const lines = jsonKeyLines(text);
  return parsed.error.issues.map((issue) => {
    const field = issue.path.join('.');
    const line = lines.get(field) ?? lines.get(issue.path.slice(0, -1).join('.')) ?? 1;
    return { code: 'content_invalid', file, line, message: `${field || '(root)'}: ${issue.message}` } satisfies Problem;
  });
}

/**
 * Checks everything a content maintainer edits, before visitors see it: translations in step
 * across languages, the Markdown pages, internal links, `site.json`, and what search results show
 * of each page (titles and descriptions: seo.ts); and, as warnings, pages
 * some languages lack and translations made from an older English text (`strict`: errors).
 */
export function checkContent({ contentDir, templatesDir, root, strict = false }: { contentDir: string; templatesDir: string; root: string; strict?: boolean }): CheckResult {
  const translations = checkTranslations(contentDir, root);
  const pages = checkPages(contentDir, root, new Set(PLACEHOLDER_NAMES));
  const outdated = checkOutdated(contentDir, root);
  const problems = [
    ...checkSiteConfig(contentDir, root),
    ...translations.problems,
    ...pages.problems,
    ...checkLinks(contentDir, templatesDir, root),
    ...checkDataFacts(contentDir, root),
    ...checkTypography(contentDir, root),
    ...checkSeo(contentDir, root),
    ...outdated.problems,
    ...(strict ? outdated.outdated : []),
  ];
  const warnings = [...pages.warnings, ...(strict ? [] : outdated.outdated)];
  return { problems, warnings, languages: LANGUAGES.length, keys: translations.keys, pages: pages.pages };
}
