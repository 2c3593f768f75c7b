import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../../cli/pipeline/build-site.ts';
import { fillPlaceholders } from '../../../cli/site/markdown/markdown.ts';
import { renderMarkdown } from '../../../cli/site/markdown/render-markdown.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { testOutDir } from '../../helpers/test-folders.ts';

function contentCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(DEFAULT_PATHS.contentDir, dir, { recursive: true });
  return dir;
}

describe('content validation', () => {
  it('fails the build naming site.json and the bad field', async () => {
    const contentDir = contentCopy();
    const site = JSON.parse(readFileSync(join(contentDir, 'site.json'), 'utf8'));
    site.email = 'not-an-email';
    delete site.social.linkedin;
    writeFileSync(join(contentDir, 'site.json'), JSON.stringify(site));
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir: testOutDir() });
    expect(result.errors.map(formatProblem).some((e) => e.includes('site.json: email:'))).toBe(true);
    expect(result.errors.map(formatProblem).some((e) => e.includes('site.json: social.linkedin:'))).toBe(true);
    expect(result.pages).toEqual([]);
  });

  it('fails the build naming the Markdown file, line and placeholder without a value', async () => {
    const contentDir = contentCopy();
    const file = join(contentDir, 'pages', 'de', 'cookies.md');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nFragen an {{dpo}}.\n`);
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir: testOutDir() });
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    expect(result.errors.map(formatProblem)).toContain(`${file}:${lines}: placeholder {{dpo}} has no value in content/site.json [placeholder_unknown]`);
  });

  it('fails the build when a language lacks a page text', async () => {
    const contentDir = contentCopy();
    rmSync(join(contentDir, 'pages', 'nl', 'privacy.md'));
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir: testOutDir(), langs: ['nl'] });
    expect(result.errors.map(formatProblem).some((e) => e.includes('nl/privacy.md: missing'))).toBe(true);
  });

  it('fills placeholders, takes the title and sections, and makes paragraphs of blank-line-separated text, never <br>', () => {
    expect(fillPlaceholders('Mail {{ email }} now', { email: 'a@b.c' }, 'x.md')).toBe('Mail a@b.c now');
    const doc = renderMarkdown('# Title\n\n## 1. Who we are\nline one\nline two\n\nline three\n');
    expect(doc.title).toBe('Title');
    expect(doc.sections).toEqual([{ id: '1-who-we-are', text: '1. Who we are' }]);
    expect(doc.html).toContain('<p>line one\nline two</p>\n<p>line three</p>');
    expect(doc.html).not.toContain('<br>');
  });
});

describe('tables in Markdown pages', () => {
  it('regression: a wide table scrolls in a box that takes keyboard focus and is a region named by its column headings', () => {
    const { html } = renderMarkdown('| Cookie | Purpose | Duration |\n|---|---|---|\n| _ga | "stats" & more | 2 years |\n');
    expect(html).toContain('<div class="table-scroll" tabindex="0" role="region" aria-label="Cookie, Purpose, Duration"><table>');
  });
});
