import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, type Tokens } from 'marked';
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

/** A URL fragment id for a heading text: lower case, accents dropped, words joined by dashes. */
function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Renders one Markdown document to HTML: a blank line starts a paragraph, and a single line break
 * is a space, as in any Markdown (the privacy text's lines were once joined by `<br>`, which gave a
 * wall of lines without the spacing of paragraphs; issue 42).
 */
export function renderMarkdown(source: string): RenderedMarkdown {
  let title = '';
  const sections: RenderedMarkdown['sections'] = [];
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        if (token.depth === 1) {
          title = token.text;
          return '';
        }
        const id = slugify(token.text);
        if (token.depth === 2) sections.push({ id, text: token.text });
        return `<h${token.depth} id="${id}">${inner}</h${token.depth}>\n`;
      },
      table(this: unknown, token: Tokens.Table) {
        // Wide tables scroll inside their own box on small screens instead of widening the page.
        // The box takes keyboard focus (arrow keys scroll it) and is a region named by the
        // table's column headings, in the page's language, so screen readers announce it.
        const html = new Marked({ gfm: true }).parser([token]);
        const name = token.header.map((cell) => cell.text).join(', ').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
        return `<div class="table-scroll" tabindex="0" role="region" aria-label="${name}">${html}</div>\n`;
      },
    },
  });
  const html = marked.parse(source, { async: false });
  return { title, sections, html };
}

/** Reads, fills and renders one page's Markdown; a missing file is a ContentError. */
export function loadMarkdownPage(
  contentDir: string,
  lang: Lang,
  page: MarkdownPageId,
  values: Record<string, string>,
): RenderedMarkdown {
  const file = markdownFile(contentDir, lang, page);
  if (!existsSync(file)) throw new ContentError([{ code: 'content_missing', file, message: `missing (every language needs its ${MARKDOWN_PAGES[page]}.md)` }]);
  const source = fillPlaceholders(readFileSync(file, 'utf8'), values, file);
  return renderMarkdown(source);
}
