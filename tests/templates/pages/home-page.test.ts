/**
 * The home page makes each claim once (issue 23): the overview's six points and its "why" block
 * said again what the product tour, the strip and the feature cards say, so they went; the
 * feature grid keeps the four capabilities nothing else on the page states.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { HomePage } from '../../../templates/pages/HomePage.tsx';
import { FeatureGrid } from '../../../templates/sections/FeatureGrid.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

/**
 * The home page's headings and paragraphs in order, without the product figures (their labels are
 * data, not claims) and the newsletter form's empty message slots.
 */
function claimsOf(html: string): string[] {
  const withoutFigures = html.replace(/<figure\b[\s\S]*?<\/figure>/g, '');
  return allOf(withoutFigures, /<(?:h[1-3]|p)\b[^>]*>([\s\S]*?)<\/(?:h[1-3]|p)>/g).map(textOf).filter(Boolean);
}

describe.each(LANGUAGES)('the home page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, HomePage);

  it('shows hero, strip, product tour, feature grid, call to action and newsletter, and no overview', () => {
    expect(allOf(html, /<section\b[^>]*\bid="([^"]+)"/g)).toEqual(['how-it-works', 'features', 'newsletter']);
    expect(html).not.toContain('id="solutions"');
    expect(allOf(html, /<h2\b[^>]*>([\s\S]*?)<\/h2>/g).map(textOf)).toEqual(
      ['overview.databases.title', 'overview.regulations.title', 'overview.tour.title', 'features.title', 'cta.title', 'newsletter.title'].map((key) => textOf(t(key))),
    );
  });

  it('has four feature cards: compliance, obfuscation, scale, synchronisation', () => {
    const cards = allOf(renderTemplate(lang, FeatureGrid), /<article\b[^>]*>([\s\S]*?)<\/article>/g);
    expect(cards.map((card) => textOf(allOf(card, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!))).toEqual(
      ['compliance', 'obfuscation', 'scalable', 'sync'].map((key) => textOf(t(`features.${key}.title`))),
    );
  });

  it('says each heading and each paragraph once', () => {
    const claims = claimsOf(html).map((text) => text.toLowerCase());
    expect(claims.length).toBeGreaterThan(20);
    expect(claims.filter((text, i) => claims.indexOf(text) !== i)).toEqual([]);
  });
});

describe('regression: claims the overview, "why" block and feature cards repeated are made once (en)', () => {
  const claims = claimsOf(renderTemplate('en', HomePage));
  const saying = (pattern: RegExp) => claims.filter((text) => pattern.test(text));

  it('the regulations are listed once in a paragraph (the compliance card), the strip names them as badges', () => {
    expect(saying(/GDPR/)).toEqual([expect.stringMatching(/^Start from ready-made masking rules/)]);
  });

  it('access logs are the administrator tools\' claim, not an audit-trail card as well', () => {
    expect(saying(/\blog(s|ged)?\b|audit/i)).toEqual([expect.stringMatching(/^Decide who sees original or masked data/)]);
  });

  it('scale, consistent masking and unchanged applications are each said once', () => {
    expect(saying(/scal/i)).toEqual(['Scales to large databases']);
    expect(saying(/foreign keys/i)).toHaveLength(1);
    expect(saying(/unchanged|without changing/i)).toEqual([expect.stringMatching(/^Point your applications at MaskWise/)]);
  });
});
