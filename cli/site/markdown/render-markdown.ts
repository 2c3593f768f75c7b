/**
 * Markdown to HTML (marked): the legal texts and the pages added as Markdown, as their templates
 * show them. A module of its own, imported by the render stage only when it renders such a page
 * (cli/pipeline/render-pages.ts): setting marked up costs about 10 ms of a process that renders
 * none, as a one-string rebuild does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Marked, type Tokens } from 'marked';
import type { Lang } from '../languages.ts';
import { ContentError } from '../errors.ts';
import type { ContentPage } from './content-pages.ts';
import { fillPlaceholders, MARKDOWN_PAGES, markdownFile, type MarkdownPageId, type RenderedMarkdown } from './markdown.ts';

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

/** A page added as Markdown, ready for its template: the filled-in title and description, and the body as HTML. */
export interface RenderedContentPage extends RenderedMarkdown {
  description: string;
}

/**
 * Fills the `{{placeholders}}` of a page's title, description and body with `values` and renders
 * the body; a placeholder without a value is a ContentError at its file and line.
 */
export function renderContentPage(page: ContentPage, values: Record<string, string>): RenderedContentPage {
  const title = fillPlaceholders(page.title, values, page.file, page.fieldLines.title);
  const description = fillPlaceholders(page.description, values, page.file, page.fieldLines.description);
  const body = renderMarkdown(fillPlaceholders(page.body(), values, page.file, page.bodyLine));
  return { ...body, title, description };
}
