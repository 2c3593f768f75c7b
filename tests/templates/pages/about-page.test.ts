/** The about page: its sections in the specification's order, composed so that no grid ends in a half-empty row. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { AboutPage } from '../../../templates/pages/AboutPage.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

describe.each(LANGUAGES)('the about page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, AboutPage, 'about');

  it('has the sections mission, vision, what we do, why choose, journey and who we serve, in that order', () => {
    const headings = allOf(html, /<h2[^>]*>([\s\S]*?)<\/h2>/g).map(textOf);
    expect(headings.slice(0, 6)).toEqual(
      ['mission', 'vision', 'whatWeDo', 'whyChoose', 'journey', 'whoWeServe'].map((k) => textOf(t(`about.${k}.title`))),
    );
  });

  it('regression: heads the sectors it is made for without claiming them as customers (the French said "Nos clients")', () => {
    const start = html.indexOf('<section aria-labelledby="who-we-serve"');
    const heading = textOf(/<h2[^>]*>([\s\S]*?)<\/h2>/.exec(html.slice(start))![1]!);
    expect(heading).toBe(textOf(t('about.whoWeServe.title')));
    expect(heading).not.toMatch(/client|customer|kunde|klant|cliente/i);
  });

  it('names every audience, with what it needs', () => {
    const text = textOf(html);
    for (const key of ['healthcare', 'financial', 'government', 'dbas', 'enterprises']) {
      expect(text).toContain(textOf(t(`about.whoWeServe.${key}.title`)));
      expect(text).toContain(textOf(t(`about.whoWeServe.${key}.text`)));
    }
  });
});

it('regression: "who we serve" fills whole rows of two and of three columns (it ended in an orphaned row of 5 cards)', () => {
  const html = renderTemplate('en', AboutPage, 'about');
  const start = html.indexOf('<section aria-labelledby="who-we-serve"');
  const cells = allOf(html.slice(start, html.indexOf('</section>', start)), /<li\b[^>]*>/g);
  expect(cells).toHaveLength(6);
  expect(cells.length % 2).toBe(0);
  expect(cells.length % 3).toBe(0);
});
