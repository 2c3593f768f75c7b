/**
 * The home page as the specification describes it (issue 39): header, hero with the demo button, an
 * overview of six cards (security, compliance, deployment, admin, architecture, compatibility) and a
 * "why" block, the feature grid of six cards keyed gdpr, hipaa, obfuscation, scalable, sync and
 * audit, the call-to-action banner with contact sales, the newsletter section, footer. Cards move in
 * 0.1 s apart and the hero's three parts at 0.1, 0.2 and 0.3 s, by a transform only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { contentPageId, pathFor, siteRoutes } from '../../../cli/site/routes.ts';
import { HomePage } from '../../../templates/pages/HomePage.tsx';
import { DATABASES } from '../../../templates/visuals/databases.ts';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

const OVERVIEW_KEYS = ['security', 'compliance', 'deployment', 'admin', 'architecture', 'compatibility'];
const FEATURE_KEYS = ['gdpr', 'hipaa', 'obfuscation', 'scalable', 'sync', 'audit'];
const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);

/** The `<article>` cards inside the element whose `id` is given, as [data-card, html]. */
function cardsIn(html: string, id: string): Array<[string, string]> {
  const start = html.indexOf(`id="${id}"`);
  const section = html.slice(start, html.indexOf('</section>', start));
  return [...section.matchAll(/<article\b[^>]*data-card="([^"]+)"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => [m[1]!, m[0]]);
}

/** The home page's headings and paragraphs in order, without the hero's figure (its labels are data, not claims). */
function claimsOf(html: string): string[] {
  const withoutFigures = html.replace(/<figure\b[\s\S]*?<\/figure>/g, '');
  return allOf(withoutFigures, /<(?:h[1-3]|p)\b[^>]*>([\s\S]*?)<\/(?:h[1-3]|p)>/g).map(textOf).filter(Boolean);
}

describe.each(LANGUAGES)('the home page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, HomePage);

  it('shows hero, overview, feature grid, call to action and newsletter, in the specification\'s order', () => {
    expect(allOf(html, /<section\b[^>]*\bid="([^"]+)"/g)).toEqual(['overview', 'features', 'newsletter']);
    expect(allOf(html, /<h2\b[^>]*>([\s\S]*?)<\/h2>/g).map(textOf)).toEqual(
      ['overview.title', 'features.title', 'cta.title', 'newsletter.title'].map((key) => textOf(t(key))),
    );
  });

  it('has an overview of six cards and the "why" block with its three points', () => {
    const cards = cardsIn(html, 'overview');
    expect(cards.map(([key]) => key)).toEqual(OVERVIEW_KEYS);
    for (const [key, card] of cards) {
      expect(textOf(allOf(card, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!)).toBe(textOf(t(`overview.${key}.title`)));
      expect(textOf(card)).toContain(textOf(t(`overview.${key}.description`)));
    }
    const why = html.slice(html.indexOf('data-block="why"'));
    expect(textOf(allOf(why, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!)).toBe(textOf(t('overview.why.title')));
    for (const point of ['point1', 'point2', 'point3']) expect(textOf(why)).toContain(textOf(t(`overview.why.${point}`)));
  });

  it('regression: the compatibility card under the hero lists only the databases available today, and links the roadmap on the how-it-works page', () => {
    const [, card] = cardsIn(html, 'overview').find(([key]) => key === 'compatibility')!;
    expect(textOf(card)).toContain(textOf(t('overview.databases.available')));
    for (const name of DATABASES.available) expect(card).toContain(`>${name}</li>`);
    // The first screen below the hero read "Planned: PostgreSQL": the roadmap, where a buyer looks for fit.
    for (const status of ['coming', 'planned'] as const) {
      expect(textOf(card)).not.toContain(textOf(t(`overview.databases.${status}`)));
      for (const name of DATABASES[status]) expect(textOf(card)).not.toContain(name);
    }
    expect(allOf(card, /<a href="([^"]+)"[^>]*>/g)).toEqual([pathFor('howItWorks', lang)]);
    expect(textOf(card)).toContain(textOf(t('overview.databases.roadmap')));
  });

  it('links the regulation pages of its language: the compliance card all of them, the GDPR and HIPAA cards their own', () => {
    const [, compliance] = cardsIn(html, 'overview').find(([key]) => key === 'compliance')!;
    const regulations = routes.placedLinks('regulations', lang);
    expect(allOf(compliance, /<a href="([^"]+)"/g)).toEqual(regulations.map((link) => link.href));
    for (const [key, card] of cardsIn(html, 'features').filter(([key]) => key === 'gdpr' || key === 'hipaa')) {
      const page = routes.pathFor(contentPageId(key), lang);
      expect(allOf(card, /<a href="([^"]+)"/g)).toEqual(page === undefined ? [] : [page]);
    }
  });

  it('has a feature grid of six cards with the specified keys', () => {
    const cards = cardsIn(html, 'features');
    expect(cards.map(([key]) => key)).toEqual(FEATURE_KEYS);
    for (const [key, card] of cards) expect(textOf(allOf(card, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!)).toBe(textOf(t(`features.${key}.title`)));
  });

  it('staggers each grid\'s cards by 0.1 s per index and the hero\'s three parts at 0.1, 0.2 and 0.3 s, only with motion allowed', () => {
    for (const id of ['overview', 'features']) {
      expect(cardsIn(html, id).map(([, card]) => /animation-delay:(\d+)ms/.exec(card)?.[1])).toEqual(['0', '100', '200', '300', '400', '500']);
      for (const [, card] of cardsIn(html, id)) expect(card).toMatch(/class="[^"]*motion-safe:animate-rise/);
    }
    expect(allOf(html, /data-hero-part="\d" class="[^"]*\[animation-delay:(\d+)ms\]/g)).toEqual(['100', '200', '300']);
  });

  it('leads its demo button to the demo page and its sales button to the sales page, naming the home page as the source', () => {
    const home = pathFor('home', lang);
    expect(html).toContain(`href="${pathFor('contactDemo', lang)}?from=${home}#contact-form"`);
    expect(html).toContain(`href="${pathFor('contactSales', lang)}?from=${home}#contact-form"`);
  });

  it('says each heading and each paragraph once', () => {
    const claims = claimsOf(html).map((text) => text.toLowerCase());
    expect(claims.length).toBeGreaterThan(20);
    expect(claims.filter((text, i) => claims.indexOf(text) !== i)).toEqual([]);
  });
});

describe('the home page in English', () => {
  const text = textOf(renderTemplate('en', HomePage));

  it('speaks of security and audit trails, as the specification\'s cards do', () => {
    expect(text).toContain('Security by design');
    expect(text).toContain('Audit trails');
  });

  it('links all five regulation pages from the compliance card', () => {
    expect(routes.placedLinks('regulations', 'en').map((link) => link.label)).toEqual(['GDPR', 'HIPAA', 'SOX', 'PCI DSS', 'CCPA']);
  });

  it('cites the articles of the laws it states something about', () => {
    expect(text).toMatch(/GDPR[^.]*\(Art\. 25 and 32\)/);
    expect(text).toContain('45 CFR 164.514(b)(2)');
  });
});

describe('the cards\' motion', () => {
  it('is a transform only, never a change of opacity that would hide a card while it waits', () => {
    const css = readFileSync(new URL('../../../templates/styles.css', import.meta.url), 'utf8');
    const keyframes = /@keyframes rise \{([\s\S]*?)\n {2}\}/.exec(css)?.[1] ?? '';
    expect(keyframes).toContain('transform');
    expect(keyframes).not.toContain('opacity');
  });
});
