import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Problem } from '../errors.ts';
import { LANGUAGES, type Lang } from '../languages.ts';
import { MARKDOWN_PAGES } from './markdown.ts';
import { FrontMatterLanguageError, frontMatterOpening, type SplitPage, splitFrontMatter } from './front-matter.ts';
import { contentPagePath, NAV_PLACEMENTS, reservedPathReason, type ContentPageRoute } from '../routes.ts';

/** A slug: lower-case words of letters and digits joined by dashes, segments joined by `/`. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

/** A page's file name without `.md`: the same rules as one slug segment. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The front matter of a page added as Markdown, between `---` lines at the top of the file:
 *
 * ```yaml
 * title: Data masking for healthcare        # the page's heading, and its <title> with the brand
 * description: Protect patient data in …     # the search and sharing snippet
 * slug: healthcare                           # the URL in this language: /healthcare, /es/sanidad
 * nav: solutions                             # optional: listed on the solutions page (an industry page), or a link in the `header` or `footer`
 * navLabel: Healthcare                       # optional: the link's text (default: title)
 * navOrder: 1                                # optional: links are sorted by it (default 0)
 * ```
 */
const frontMatterSchema = z
  .object({
    title: z.string().trim().min(1),
    description: z.string().trim().min(1),
    slug: z.string().regex(SLUG, 'must be lower-case letters, digits and dashes (segments joined by "/"), e.g. "healthcare" or "solutions/healthcare"'),
    nav: z.enum(NAV_PLACEMENTS).optional(),
    navLabel: z.string().trim().min(1).optional(),
    navOrder: z.number().int().optional(),
  })
  .strict();

/** One language's text of a page added as Markdown, read and validated. */
export interface ContentPage extends ContentPageRoute {
  /** The file it was read from, `<contentDir>/pages/<lang>/<name>.md`. */
  file: string;
  title: string;
  /** The Markdown below the front matter, read when asked: a build with the cache reads only the bodies of the pages it renders (`cli/pipeline/cache/front-matter-cache.ts`). */
  body(): string;
  /** The file line of the body's first line, so a problem in the body can name its line. */
  bodyLine: number;
  /** The file lines of the front matter's title, description and slug, for problems found later. */
  fieldLines: Readonly<Record<'title' | 'description' | 'slug', number>>;
}

/** The line of `field:` in a file's front matter (else the first line of the file that starts with it; else line 1). */
function fieldLine(page: Pick<SplitPage, 'frontLines'>, source: string, field: string): number {
  const starts = (line: string, i: number) => i > 0 && line.startsWith(`${field}:`);
  let index = page.frontLines.findIndex(starts);
  if (index === -1) index = source.split('\n').findIndex(starts);
  return index === -1 ? 1 : index + 1;
}

/** How a page file is read: `readContentPage`, or through the build's cache of front matter. */
export type PageReader = (file: string, lang: Lang, name: string) => ContentPage | Problem[];

/** A page file's text, with Windows line ends read as `\n` (the lines problems name count them so). */
export function readPageSource(file: string): string {
  return readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
}

/** Reads one page file: its front matter validated, or the problems that keep it from being a page. */
export function readContentPage(file: string, lang: Lang, name: string): ContentPage | Problem[] {
  const source = readPageSource(file);
  if (frontMatterOpening(source).kind === 'none') {
    return [{ code: 'front_matter_invalid', file, line: 1, message: 'has no front matter: start the file with a "---" line, then title, description and slug, then "---"' }];
  }
  let split: SplitPage;
  try {
    split = splitFrontMatter(source);
  } catch (error) {
    if (error instanceof FrontMatterLanguageError) return [{ code: 'front_matter_language', file, line: 1, message: error.message }];
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = ((error as Error).message.split('\n')[0] ?? '').replace(/^YAMLException: /, '');
    return [{ code: 'front_matter_invalid', file, line: (mark?.line ?? 0) + 2, message: `front matter is not valid YAML: ${reason}` }];
  }
  const result = frontMatterSchema.safeParse(split.data);
  if (!result.success) {
    return result.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? (issue.code === 'unrecognized_keys' ? issue.keys[0] : ''));
      const message = issue.code === 'unrecognized_keys' ? `front matter field ${issue.keys.map((k) => `"${k}"`).join(', ')} is not one of title, description, slug, nav, navLabel, navOrder` : `front matter ${field || '(root)'}: ${issue.message}`;
      return { code: 'front_matter_invalid', file, line: field ? fieldLine(split, source, field) : 1, message } satisfies Problem;
    });
  }
  const data = result.data;
  return {
    name,
    lang,
    file,
    slug: data.slug,
    title: data.title,
    description: data.description,
    ...(data.nav ? { nav: data.nav } : {}),
    navLabel: data.navLabel ?? data.title,
    navOrder: data.navOrder ?? 0,
    body: () => split.body,
    bodyLine: split.bodyLine,
    fieldLines: { title: fieldLine(split, source, 'title'), description: fieldLine(split, source, 'description'), slug: fieldLine(split, source, 'slug') },
  };
}

/** The files of pages added as Markdown: every `content/pages/<lang>/<name>.md` but the legal texts. */
export function contentPageFiles(contentDir: string): { lang: Lang; name: string; file: string }[] {
  const legal = new Set<string>(Object.values(MARKDOWN_PAGES));
  return LANGUAGES.flatMap((lang) => {
    const dir = join(contentDir, 'pages', lang);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((entry) => entry.endsWith('.md') && !legal.has(entry.slice(0, -3)))
      .sort()
      .map((entry) => ({ lang, name: entry.slice(0, -3), file: join(dir, entry) }));
  });
}

/**
 * Finds and reads the pages added as Markdown in `contentDir`, every language, and validates
 * them: the file name, the front matter, and each language's URLs (unique, clear of the fixed
 * routes). A page with a problem is left out, and the problem returned with its file and line.
 */
export function loadContentPages(contentDir: string, read: PageReader = readContentPage): { pages: ContentPage[]; problems: Problem[] } {
  const pages: ContentPage[] = [];
  const problems: Problem[] = [];
  const taken = new Map<string, ContentPage>();
  for (const { lang, name, file } of contentPageFiles(contentDir)) {
    if (!NAME.test(name)) {
      problems.push({ code: 'front_matter_invalid', file, line: 1, message: `file name "${name}.md" must be lower-case letters, digits and dashes (it joins the page's languages)` });
      continue;
    }
    const page = read(file, lang, name);
    if (Array.isArray(page)) {
      problems.push(...page);
      continue;
    }
    const path = contentPagePath(lang, page.slug);
    const line = page.fieldLines.slug;
    const reserved = reservedPathReason(lang, path);
    const other = taken.get(path);
    if (reserved || other) {
      const why = reserved ?? `${other!.name}.md already has it`;
      problems.push({ code: 'slug_conflict', file, line, message: `slug "${page.slug}" gives the URL ${path}, but ${why}` });
      continue;
    }
    taken.set(path, page);
    pages.push(page);
  }
  return { pages, problems };
}
