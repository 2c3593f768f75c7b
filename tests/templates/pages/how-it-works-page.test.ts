/**
 * The how-it-works page: proxy mode and the interactive client side by side, the administrator
 * tools, the supported databases by status (the roadmap), scalability, synchronisation and audit
 * trails, drawn as HTML and SVG whose words are text in the page's language.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { HowItWorksPage } from '../../../templates/pages/HowItWorksPage.tsx';
import { DATABASES } from '../../../templates/visuals/databases.ts';
import { allOf, renderTemplate, textOf, translatorFor, withoutHidden } from '../render-template.tsx';

/** Each figure's accessible name: the text of the figcaption its aria-labelledby points to. */
function figureNames(html: string): string[] {
  return allOf(html, /<figure aria-labelledby="([^"]+)"/g).map((id) => textOf(allOf(html, new RegExp(`<figcaption id="${id}"[^>]*>([\\s\\S]*?)</figcaption>`, 'g'))[0] ?? ''));
}

/** The part of the page inside one figure, or one section (by the id of its heading). */
function figure(html: string, id: string): string {
  const start = html.indexOf(`<figure aria-labelledby="${id}"`);
  return html.slice(start, html.indexOf('</figure>', start));
}
function section(html: string, id: string): string {
  const start = html.indexOf(`<section aria-labelledby="${id}"`);
  return html.slice(start, html.indexOf('</section>', start));
}

describe.each(LANGUAGES)('the how-it-works page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, HowItWorksPage);

  it('has its title, then sections on the two modes, the administrator tools, the databases and operations, in that order', () => {
    expect(textOf(allOf(html, /<h1[^>]*>([\s\S]*?)<\/h1>/g)[0]!)).toBe(textOf(t('howItWorks.title')));
    expect(allOf(html, /<h2[^>]*>([\s\S]*?)<\/h2>/g).map(textOf)).toEqual(
      ['howItWorks.modes.title', 'howItWorks.adminTools.title', 'overview.databases.title', 'howItWorks.operations.title', 'cta.title'].map((k) => textOf(t(k))),
    );
  });

  it('shows proxy mode and the interactive client side by side on wide screens, each with its figure', () => {
    const modes = section(html, 'modes');
    expect(modes).toMatch(/<div class="grid [^"]*\blg:grid-cols-2\b[^"]*"><article aria-labelledby="proxy-mode"/);
    expect(allOf(modes, /<h3[^>]*>([\s\S]*?)<\/h3>/g).map(textOf)).toEqual([textOf(t('howItWorks.proxy.title')), textOf(t('howItWorks.client.title'))]);
    expect(figureNames(html)).toEqual(['howItWorks.proxy.caption', 'howItWorks.client.caption', 'howItWorks.adminTools.caption'].map((k) => textOf(t(k))));
  });

  it('draws with text and decorative SVG only: every SVG is hidden from screen readers, no images', () => {
    expect(html).not.toMatch(/<img\b/);
    for (const svg of allOf(html, /(<svg\b[^>]*>)/g)) expect(svg).toContain('aria-hidden="true"');
  });

  it('shows proxy mode between the applications and the databases available today', () => {
    const text = textOf(withoutHidden(figure(html, 'proxy-caption')));
    const order = ['howItWorks.proxy.apps', 'howItWorks.proxy.proxy', 'howItWorks.proxy.database'].map((k) => text.indexOf(textOf(t(k))));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const name of DATABASES.available) expect(text).toContain(name);
    for (const name of [...DATABASES.coming, ...DATABASES.planned]) expect(text).not.toContain(name);
  });

  it('shows the interactive client returning masked phone numbers', () => {
    const client = figure(html, 'client-caption');
    const phones = allOf(client.slice(client.indexOf('<tbody')), /<td[^>]*>([^<]*\+34[^<]*)<\/td>/g);
    expect(phones).toHaveLength(3);
    for (const phone of phones) expect(phone).toMatch(/^\+34 6•• ••• •\d\d$/);
  });

  it('shows the administrator tools: privileges, logs and a generated configuration file, and says the figures hold examples', () => {
    const admin = figure(html, 'admin-caption');
    expect(allOf(admin, /<h3[^>]*>([\s\S]*?)<\/h3>/g).map((h) => textOf(withoutHidden(h)))).toEqual(
      ['privileges', 'logs', 'config'].map((k) => textOf(t(`howItWorks.adminTools.${k}`))),
    );
    expect(textOf(admin)).toContain('masking.conf');
    expect(textOf(section(html, 'admin-tools'))).toContain(textOf(t('howItWorks.example')));
  });

  it('lists every database by status: available, coming soon, planned', () => {
    const databases = section(html, 'databases');
    for (const [status, names] of Object.entries(DATABASES)) {
      expect(textOf(databases)).toContain(textOf(t(`overview.databases.${status}`)));
      for (const name of names) expect(databases).toContain(`>${name}</li>`);
    }
  });

  it('presents scalability, real-time synchronisation and audit trails with the feature grid\'s words', () => {
    const operations = section(html, 'operations');
    expect(allOf(operations, /<h3[^>]*>([\s\S]*?)<\/h3>/g).map((h) => textOf(withoutHidden(h)))).toEqual(['scalable', 'sync', 'audit'].map((k) => textOf(t(`features.${k}.title`))));
  });
});
