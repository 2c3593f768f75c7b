import { describe, expect, it } from 'vitest';
import type { OutputDocument } from '../../../cli/verify/built-output.ts';
import { scanTags } from '../../../cli/verify/html-scan.ts';
import { SEO_TAGS, validateSeo } from '../../../cli/verify/seo.ts';

const DESCRIPTION = 'What this page offers, said in the seventy to one hundred sixty characters a result shows';

/** A built page of the fixture: its language, title, description and body. */
function document(file: string, { lang = 'en', title = `Page ${file}`, description = `${DESCRIPTION} (${file}).`, body = '<h1>Title</h1><h2>Part</h2>', head = '' } = {}): OutputDocument {
  const html = `<!DOCTYPE html><html lang="${lang}"><head><title>${title}</title><meta name="description" content="${description}"/>${head}</head><body><main id="main">${body}</main></body></html>`;
  return { path: `/${file.replace(/\.html$/, '')}`, file, html };
}

/** The problems of `documents` as `file: [code]` lines. */
const problems = (...documents: OutputDocument[]) =>
  validateSeo(documents.map((d) => ({ document: d, tags: scanTags(d.html).filter((t) => SEO_TAGS.has(t.name)) }))).map((p) => `${p.file}: [${p.code}] ${p.message}`);

describe('the SEO checks of the built pages', () => {
  it('find nothing wrong with pages that have their own title and description, described images and headings in order', () => {
    expect(problems(document('a.html', { body: '<h1>A</h1><img src="/x.png" alt="A chart"/><img src="/y.png" alt=""/><h2>B</h2><h3>C</h3><h2>D</h2>' }), document('b.html'))).toEqual([]);
  });

  it('report a title longer than 60 characters, entities and all as a reader counts them', () => {
    const title = `Données &amp; ${'x'.repeat(51)}`; // 61 characters once decoded
    expect(problems(document('a.html', { title }))).toEqual([`a.html: [seo_title_length] the title is 61 characters ("Données & ${'x'.repeat(51)}"); search results cut it after about 60: shorten it`]);
    expect(problems(document('a.html', { title: 'é'.repeat(60) }))).toEqual([]);
  });

  it('report a description shorter than 70 or longer than 160 characters', () => {
    expect(problems(document('a.html', { description: 'Too short.' }))).toEqual([
      'a.html: [seo_description_length] the description is 10 characters ("Too short."); search results show 70–160: say more about the page',
    ]);
    expect(problems(document('b.html', { description: 'y'.repeat(161) }))[0]).toMatch(/^b\.html: \[seo_description_length\] the description is 161 characters .*: shorten it$/);
  });

  it('report the same title or description on two indexed pages of one language, at the second, and not across languages', () => {
    expect(problems(document('a.html', { title: 'Same' }), document('b.html', { title: 'Same' }), document('de/a.html', { lang: 'de', title: 'Same' }))).toEqual([
      'b.html: [seo_title_duplicate] has the same title as a.html ("Same"); each page needs its own',
    ]);
    expect(problems(document('a.html', { description: `${DESCRIPTION}.` }), document('b.html', { description: `${DESCRIPTION}.` }))).toEqual([
      `b.html: [seo_description_duplicate] has the same description as a.html ("${DESCRIPTION}."); each page needs its own`,
    ]);
  });

  it('leave the lengths and duplicates of noindex pages and aliases alone', () => {
    const noindex = document('404.html', { title: 'Same', description: 'short', head: '<meta name="robots" content="noindex"/>' });
    const alias = { ...document('alias.html', { title: 'Same' }), aliasOf: '/a' };
    expect(problems(document('a.html', { title: 'Same' }), noindex, alias)).toEqual([]);
  });

  it('report an image without an alt attribute', () => {
    expect(problems(document('a.html', { body: '<h1>A</h1><img src="/chart.png"/>' }))).toEqual([
      'a.html: [seo_image_alt] the image /chart.png has no alt attribute; describe it, or write alt="" for a decorative one',
    ]);
  });

  it('report a skipped heading level, and a page that starts below <h1>', () => {
    expect(problems(document('a.html', { body: '<h1>A</h1><h3>C</h3>' }), document('b.html', { body: '<h2>B</h2>' }))).toEqual([
      'a.html: [seo_heading_skipped] an <h3> follows an <h1>; use <h2> (a heading level is never skipped)',
      'b.html: [seo_heading_skipped] an <h2> follows no heading; use <h1> (a heading level is never skipped)',
    ]);
  });
});
