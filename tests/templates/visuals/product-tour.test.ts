/**
 * The product tour on the home page: proxy mode, the interactive client and the administrator
 * tools, drawn as HTML and SVG whose words are text in the page's language.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { ProductTour } from '../../../templates/sections/ProductTour.tsx';
import { allOf, renderTemplate, textOf, translatorFor, withoutHidden } from '../render-template.tsx';

/** Each figure's accessible name: the text of the figcaption its aria-labelledby points to. */
function figureNames(html: string): string[] {
  return allOf(html, /<figure aria-labelledby="([^"]+)"/g).map((id) => textOf(allOf(html, new RegExp(`<figcaption id="${id}"[^>]*>([\\s\\S]*?)</figcaption>`, 'g'))[0] ?? ''));
}

/** The part of the page inside one figure. */
function figure(html: string, id: string): string {
  const start = html.indexOf(`<figure aria-labelledby="${id}"`);
  return html.slice(start, html.indexOf('</figure>', start));
}

describe.each(LANGUAGES)('the product tour in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, ProductTour);

  it('shows three figures, each named by its caption', () => {
    expect(figureNames(html)).toEqual(['overview.proxy.caption', 'overview.client.caption', 'overview.adminTools.caption'].map((k) => textOf(t(k))));
  });

  it('draws with text and decorative SVG only: every SVG is hidden from screen readers, no images', () => {
    expect(html).not.toMatch(/<img\b/);
    for (const svg of allOf(html, /(<svg\b[^>]*>)/g)) expect(svg).toContain('aria-hidden="true"');
  });

  it('shows proxy mode between the applications and the databases available today', () => {
    const text = textOf(withoutHidden(figure(html, 'proxy-caption')));
    const order = ['overview.proxy.apps', 'overview.proxy.proxy', 'overview.proxy.database'].map((k) => text.indexOf(textOf(t(k))));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const name of ['MySQL', 'MariaDB', 'Aurora RDS', 'Percona Server']) expect(text).toContain(name);
    for (const name of ['Cassandra', 'ScyllaDB', 'PostgreSQL']) expect(text).not.toContain(name);
    expect(text).toContain(textOf(t('overview.proxy.maskedResults')));
  });

  it('shows the interactive client returning masked phone numbers', () => {
    const client = figure(html, 'client-caption');
    const phones = allOf(client.slice(client.indexOf('<tbody')), /<td[^>]*>([^<]*\+34[^<]*)<\/td>/g);
    expect(phones).toHaveLength(3);
    for (const phone of phones) expect(phone).toMatch(/^\+34 6•• ••• •\d\d$/);
    expect(textOf(client)).toContain(textOf(t('overview.client.status')));
  });

  it('shows the administrator tools: privileges, logs and a generated configuration file', () => {
    const admin = figure(html, 'admin-caption');
    expect(allOf(admin, /<h4[^>]*>([\s\S]*?)<\/h4>/g).map((h) => textOf(withoutHidden(h)))).toEqual(
      ['privileges', 'logs', 'config'].map((k) => textOf(t(`overview.adminTools.${k}`))),
    );
    const access = allOf(admin, /<span class="inline-block rounded-full[^"]*">([\s\S]*?)<\/span>/g).map(textOf);
    expect(access).toEqual(['original', 'masked', 'masked', 'none'].map((k) => textOf(t(`overview.adminTools.${k}`))));
    expect(textOf(admin)).toContain('masking.conf');
  });
});
