import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../../cli/check/check-content.ts';
import { outlineProblems } from '../../../cli/check/markdown-outline.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

const codes = (source: string, titleLevel: 0 | 1) => outlineProblems('page.md', source, titleLevel).map((p) => `${p.line} ${p.code}`);

describe('sitegen check: images and headings in Markdown', () => {
  it('passes headings that go down one level at a time and come back up any number', () => {
    expect(codes('# Title\n\n## A\n\n### A.1\n\n#### A.1.a\n\n## B\n', 0)).toEqual([]);
    expect(codes('## A\n\n### A.1\n\n## B\n', 1)).toEqual([]);
  });

  it('reports a heading that skips a level, at its line, after a front matter title or the text\'s own', () => {
    expect(codes('Intro.\n\n### Too deep\n', 1)).toEqual(['3 seo_heading_skipped']);
    expect(codes('# Title\n\n### Too deep\n\n## Fine\n\n#### Too deep again\n', 0)).toEqual(['3 seo_heading_skipped', '7 seo_heading_skipped']);
    expect(codes('## A title written as a section\n', 0)).toEqual(['1 seo_heading_skipped']);
  });

  it('reports an image without a text alternative, in Markdown or as HTML, and passes described ones', () => {
    expect(codes('![](chart.png)\n\n![ ](x.png)\n\n<img src="x.png">\n', 1)).toEqual(['1 seo_image_alt', '3 seo_image_alt', '5 seo_image_alt']);
    expect(codes('![The proxy between the application and the database](proxy.png)\n\n<img src="x.png" alt="">\n', 1)).toEqual([]);
  });

  it('ignores what a fenced code block shows', () => {
    expect(codes('## Example\n\n```md\n#### not a heading\n![](not-an-image.png)\n```\n', 1)).toEqual([]);
  });

  it('runs in `sitegen check` on an added page, at the line in its file', () => {
    const root = mkdtempSync(join(tmpdir(), 'check-outline-'));
    cpSync(join(PROJECT_ROOT, 'content'), join(root, 'content'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
    const file = 'content/pages/fr/gdpr.md';
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const firstSection = text.split('\n').findIndex((l) => l.startsWith('## ')) + 1;
    writeFileSync(path, text.replace(/^## /m, '### ').replace(/\n\n(?=## )/, '\n\n![](schema.png)\n\n'));
    const problems = checkContent({ contentDir: join(root, 'content'), templatesDir: join(root, 'templates'), root }).problems.map(formatProblem);
    expect(problems.filter((p) => /seo_heading_skipped|seo_image_alt/.test(p))).toEqual([
      `${file}:${firstSection}: a "### " heading follows a level-1 heading; write "## " (a heading level is never skipped) [seo_heading_skipped]`,
      expect.stringMatching(new RegExp(`^${file}:\\d+: an image has no text alternative: describe it between the brackets, .* \\[seo_image_alt\\]$`)),
    ]);
  });
});
