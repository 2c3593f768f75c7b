/** The band under the hero: the databases as the product specification announces them, and the regulations, as text. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { SupportStrip } from '../../../templates/sections/SupportStrip.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

/** How each language abbreviates the GDPR; the other regulations keep their names. */
const GDPR: Record<Lang, string> = { en: 'GDPR', es: 'RGPD', pt: 'RGPD', fr: 'RGPD', de: 'DSGVO', it: 'GDPR', nl: 'AVG' };

describe.each(LANGUAGES)('the databases and regulations strip in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, SupportStrip);

  it('lists the databases by status: available, coming soon, planned', () => {
    const groups = [...html.matchAll(/<dt[^>]*>([\s\S]*?)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => ({
      status: textOf(m[1]!),
      databases: allOf(m[2]!, /<li[^>]*>([\s\S]*?)<\/li>/g).map(textOf),
    }));
    expect(groups).toEqual([
      { status: t('overview.databases.available'), databases: ['MySQL', 'MariaDB', 'Aurora RDS', 'Percona Server'] },
      { status: t('overview.databases.coming'), databases: ['Cassandra', 'ScyllaDB'] },
      { status: t('overview.databases.planned'), databases: ['PostgreSQL'] },
    ]);
  });

  it('names the five regulations as text badges, each with what it protects', () => {
    const regulations = html.slice(html.lastIndexOf('<ul'));
    const badges = allOf(regulations, /<li[^>]*>([\s\S]*?)<\/li>/g).map((li) => allOf(li, /<span[^>]*>([\s\S]*?)<\/span>/g).map(textOf));
    expect(badges.map(([name]) => name)).toEqual([GDPR[lang], 'HIPAA', 'SOX', 'PCI DSS', 'CCPA']);
    for (const [, scope] of badges) expect(scope).toBeTruthy();
  });

  it('is a named region with headings, and no images, logos or customer names', () => {
    expect(html).toMatch(new RegExp(`^<section aria-label="${t('overview.support')}"`));
    expect(allOf(html, /<h2[^>]*>([\s\S]*?)<\/h2>/g).map(textOf)).toEqual([t('overview.databases.title'), t('overview.regulations.title')]);
    expect(html).not.toMatch(/<img\b/);
  });
});
