import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { renderContentPage } from '../../../cli/site/markdown/render-markdown.ts';
import { ContentError } from '../../../cli/site/errors.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

/** A content folder holding only the given page files (`'en/x.md': text`). */
function contentWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pages-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'pages', path.split('/')[0]!), { recursive: true });
    writeFileSync(join(dir, 'pages', path), text);
  }
  return dir;
}

const page = (front: string, body = '\nText.\n') => `---\n${front}\n---\n${body}`;

describe('loadContentPages', () => {
  it('reads the fixture pages, joined by file name, and leaves the legal texts to their own routes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pages-'));
    cpSync(join(PROJECT_ROOT, 'tests/fixtures/content-pages'), dir, { recursive: true });
    writeFileSync(join(dir, 'pages/en/privacy.md'), '# Privacy\n');
    const { pages, problems } = loadContentPages(dir);
    expect(problems).toEqual([]);
    expect(pages.map((p) => `${p.lang} ${p.name} ${p.slug} ${p.nav ?? '-'} ${p.navLabel}`)).toEqual([
      'en case-study case-study header Case study',
      'fr case-study etude-de-cas header Étude de cas',
      'fr offre-locale offre-locale footer Offre locale',
      'nl case-study casestudy header Casestudy',
    ]);
    expect(pages[0]!.bodyLine).toBe(8);
    expect(pages[0]!.body().split('\n')[1]).toBe('An introduction for {{brand}}.');
  });

  it('reports a bad field of the front matter at its line, and leaves the page out', () => {
    const dir = contentWith({ 'de/fall.md': page('title: Fall\ndescription: Ein Fall\nslug: Fall_Studie\nnav: sidebar') });
    const { pages, problems } = loadContentPages(dir);
    expect(pages).toEqual([]);
    expect(problems.map((p) => `${p.line} ${p.code} ${p.message}`)).toEqual([
      expect.stringMatching(/^4 front_matter_invalid front matter slug: must be lower-case letters/),
      expect.stringMatching(/^5 front_matter_invalid front matter nav: /),
    ]);
  });

  it('reports a missing field, an unknown field, YAML that does not parse and a file without front matter', () => {
    const dir = contentWith({
      'en/a.md': page('title: A\nslug: a'),
      'en/b.md': page('title: B\ndescription: b\nslug: b\nmenu: header'),
      'en/c.md': page('title: C\ndescription: "unclosed\nslug: c'),
      'en/d.md': '# D\n\nNo front matter.\n',
    });
    const messages = loadContentPages(dir).problems.map((p) => `${p.file.split('/').slice(-2).join('/')}:${p.line} ${p.message}`);
    expect(messages[0]).toMatch(/^en\/a\.md:1 front matter description: /);
    expect(messages[1]).toBe('en/b.md:5 front matter field "menu" is not one of title, description, slug, nav, navLabel, navOrder');
    expect(messages[2]).toMatch(/^en\/c\.md:\d+ front matter is not valid YAML: /);
    expect(messages[3]).toBe('en/d.md:1 has no front matter: start the file with a "---" line, then title, description and slug, then "---"');
  });

  it('refuses a slug that takes a fixed page\'s URL or another page\'s, at the slug\'s line', () => {
    const dir = contentWith({
      'en/a.md': page('title: A\ndescription: a\nslug: about'),
      'es/b.md': page('title: B\ndescription: b\nslug: ofertas'),
      'es/c.md': page('title: C\ndescription: c\nslug: ofertas'),
      'en/d.md': page('title: D\ndescription: d\nslug: de/angebot'),
    });
    const { pages, problems } = loadContentPages(dir);
    expect(pages.map((p) => p.name)).toEqual(['b']);
    expect(problems.map((p) => `${p.file.split('/').slice(-2).join('/')}:${p.line} ${p.message} [${p.code}]`)).toEqual([
      'en/a.md:4 slug "about" gives the URL /about, but it is the URL of the about page [slug_conflict]',
      'en/d.md:4 slug "de/angebot" gives the URL /de/angebot, but "de" is reserved (languages, files and the form service use it) [slug_conflict]',
      'es/c.md:4 slug "ofertas" gives the URL /es/ofertas, but b.md already has it [slug_conflict]',
    ]);
  });
});

describe('renderContentPage', () => {
  it('fills placeholders in the title, description and body and renders the body', () => {
    const dir = contentWith({ 'en/a.md': page('title: About {{brand}}\ndescription: Write to {{email}}\nslug: a', '\n## Part\n\nHello from {{brand}}.\n') });
    const [loaded] = loadContentPages(dir).pages;
    const rendered = renderContentPage(loaded!, { brand: 'MaskWise', email: 'a@b.c' });
    expect(rendered).toMatchObject({ title: 'About MaskWise', description: 'Write to a@b.c', sections: [{ id: 'part', text: 'Part' }] });
    expect(rendered.html).toContain('<p>Hello from MaskWise.</p>');
  });

  it('names the file line of a placeholder without a value', () => {
    const dir = contentWith({ 'en/a.md': page('title: A\ndescription: a\nslug: a', '\nOne.\n\nTwo {{nope}}.\n') });
    const [loaded] = loadContentPages(dir).pages;
    expect(() => renderContentPage(loaded!, {})).toThrow(ContentError);
    try {
      renderContentPage(loaded!, {});
    } catch (error) {
      expect((error as ContentError).problems).toEqual([expect.objectContaining({ code: 'placeholder_unknown', line: 9 })]);
    }
  });
});
