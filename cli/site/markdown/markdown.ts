import { join } from 'node:path';
import type { Lang } from '../languages.ts';
import type { PageId, RoutePageId } from '../routes.ts';
import { ContentError, type Problem } from '../errors.ts';

/** The pages whose long text lives in Markdown, and their file names under `content/pages/<lang>/`. */
export const MARKDOWN_PAGES = { legalNotice: 'legal-notice', privacy: 'privacy', cookies: 'cookies' } as const satisfies Partial<
  Record<PageId, string>
>;

export type MarkdownPageId = keyof typeof MARKDOWN_PAGES;

/** True for the legal pages, whose text is a Markdown file in every language. */
export function isMarkdownPage(page: RoutePageId): page is MarkdownPageId {
  return page in MARKDOWN_PAGES;
}

export interface RenderedMarkdown {
  /** The text of the first `#` heading: the page's visible title. */
  title: string;
  /** The `##` sections, with the ids their headings carry, for a table of contents. */
  sections: { id: string; text: string }[];
  /** The body as HTML, without the `#` heading (the template renders the title itself). */
  html: string;
}

/** The path of one page's Markdown in one language, e.g. `content/pages/de/privacy.md`. */
export function markdownFile(contentDir: string, lang: Lang, page: MarkdownPageId): string {
  return join(contentDir, 'pages', lang, `${MARKDOWN_PAGES[page]}.md`);
}

/**
 * Replaces `{{name}}` placeholders with `values`; a placeholder without a value is an error naming
 * the file, the line (counted from `firstLine`, for a text that starts lower in its file) and the
 * placeholder.
 *
 * @example fillPlaceholders('Write to {{email}}', { email: 'a@b.c' }, 'x.md') // 'Write to a@b.c'
 */
export function fillPlaceholders(text: string, values: Record<string, string>, file: string, firstLine = 1): string {
  const missing: Problem[] = [];
  const filled = text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string, offset: number) => {
    const value = values[name];
    if (value === undefined) {
      const line = firstLine - 1 + text.slice(0, offset).split('\n').length;
      missing.push({ code: 'placeholder_unknown', file, line, message: `placeholder {{${name}}} has no value in content/site.json` });
      return match;
    }
    return value;
  });
  if (missing.length > 0) throw new ContentError(missing);
  return filled;
}
