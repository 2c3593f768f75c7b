/**
 * The home page's two grids of six (the overview and the feature grid, both required by the
 * product specification): each says something of its own, in every language.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { FeatureGrid } from '../../../templates/sections/FeatureGrid.tsx';
import { Overview } from '../../../templates/sections/Overview.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

/** The titles and texts of a grid's six items (the overview's list items, the feature grid's cards). */
function itemsOf(html: string, tag: 'li' | 'article') {
  return allOf(html, new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))
    .filter((item) => item.includes('<h3'))
    .map((item) => ({ title: textOf(allOf(item, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!), text: textOf(allOf(item, /<p[^>]*>([\s\S]*?)<\/p>/g)[0]!) }));
}

describe.each(LANGUAGES)('the overview and the feature grid in %s', (lang) => {
  const t = translatorFor(lang);
  const overview = itemsOf(renderTemplate(lang, Overview), 'li');
  const features = itemsOf(renderTemplate(lang, FeatureGrid), 'article');

  it('show the six items the specification names, in its order', () => {
    expect(overview.map((i) => i.title)).toEqual(['security', 'compliance', 'deployment', 'admin', 'architecture', 'compatibility'].map((k) => textOf(t(`overview.${k}.title`))));
    expect(features.map((i) => i.title)).toEqual(['gdpr', 'hipaa', 'obfuscation', 'scalable', 'sync', 'audit'].map((k) => textOf(t(`features.${k}.title`))));
  });

  it('share no title and no text', () => {
    const titles = [...overview, ...features].map((i) => i.title.toLowerCase());
    const texts = [...overview, ...features].map((i) => i.text.toLowerCase());
    expect(new Set(titles).size).toBe(12);
    expect(new Set(texts).size).toBe(12);
  });
});

it('regression: scalability is claimed once, by the feature grid (it was "Scalable architecture" and "Scalable solution")', () => {
  const overview = itemsOf(renderTemplate('en', Overview), 'li');
  const features = itemsOf(renderTemplate('en', FeatureGrid), 'article');
  expect(overview.filter((i) => /scal/i.test(`${i.title} ${i.text}`))).toEqual([]);
  expect(features.filter((i) => /scal/i.test(i.title)).map((i) => i.title)).toEqual(['Scales to large databases']);
});

it('regression: the "why" block does not repeat the audit-trail card', () => {
  const why = textOf(allOf(renderTemplate('en', Overview), /<ul class="space-y-4">([\s\S]*?)<\/ul>/g)[0]!);
  expect(why).not.toMatch(/audit/i);
});
