/** The footer's contact details: the company's city as each language writes it, in the same form everywhere. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadSiteConfig, locationIn } from '../../../cli/site/site-config.ts';
import { Footer } from '../../../templates/layout/Footer.tsx';
import { renderTemplate, textOf } from '../render-template.tsx';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
/** The country after the city, as each language names Spain. */
const SPAIN = { en: 'Spain', es: 'España', pt: 'Espanha', fr: 'Espagne', de: 'Spanien', it: 'Spagna', nl: 'Spanje' } as const;

describe.each(LANGUAGES)('the footer in %s', (lang) => {
  it('gives the location as "city, country", both in this language', () => {
    expect(textOf(renderTemplate(lang, Footer))).toContain(`${locationIn(site, lang)}, ${SPAIN[lang]}`);
  });
});

it('regression: the French footer says "Barcelone, Espagne" (it said "Barcelona"), the Italian "Barcellona", the others "Barcelona"', () => {
  expect(textOf(renderTemplate('fr', Footer))).toContain('Barcelone, Espagne');
  expect(textOf(renderTemplate('fr', Footer))).not.toContain('Barcelona');
  expect(textOf(renderTemplate('it', Footer))).toContain('Barcellona, Spagna');
  for (const lang of ['en', 'es', 'pt', 'de', 'nl'] as const) expect(textOf(renderTemplate(lang, Footer)), lang).toContain(`Barcelona, ${SPAIN[lang]}`);
});

it('keeps the postal address and the structured data\'s city as the city writes itself: one company, one address', () => {
  expect(site.location).toBe('Barcelona');
  expect(site.company.address).toContain(site.location);
});
