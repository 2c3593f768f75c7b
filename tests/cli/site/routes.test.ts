import { describe, expect, it } from 'vitest';
import { allRoutes, contentPageLookup, reservedPathReason, siteRoutes, type ContentPageRoute } from '../../../cli/site/routes.ts';

const page = (name: string, lang: ContentPageRoute['lang'], slug: string, extra: Partial<ContentPageRoute> = {}): ContentPageRoute => ({
  name,
  lang,
  slug,
  navLabel: slug,
  description: `About ${slug}.`,
  navOrder: 0,
  ...extra,
});

const routes = siteRoutes([
  page('healthcare', 'en', 'healthcare', { nav: 'footer', navLabel: 'Healthcare' }),
  page('healthcare', 'es', 'sanidad', { nav: 'footer', navLabel: 'Sanidad' }),
  page('banking', 'en', 'banking', { nav: 'footer', navLabel: 'Banking', navOrder: -1 }),
  page('lokaal', 'nl', 'lokaal/aanbod'),
  page('retail', 'en', 'retail', { nav: 'solutions', navLabel: 'Retail', description: 'Mask shoppers’ data.' }),
  page('gdpr', 'en', 'gdpr', { nav: 'regulations', navLabel: 'GDPR', description: 'What the GDPR asks.' }),
]);

describe('the routes table with pages added as Markdown', () => {
  it('keeps the fixed pages as they are and adds one route per page and language present', () => {
    expect(routes.allRoutes().slice(0, allRoutes().length)).toEqual(allRoutes());
    expect(routes.allRoutes().slice(allRoutes().length).map((r) => `${r.page} ${r.path}`)).toEqual([
      'content:banking /banking',
      'content:gdpr /gdpr',
      'content:healthcare /healthcare',
      'content:retail /retail',
      'content:healthcare /es/sanidad',
      'content:lokaal /nl/lokaal/aanbod',
    ]);
    expect(routes.allRoutes(['es']).filter((r) => r.page.startsWith('content:')).map((r) => r.path)).toEqual(['/es/sanidad']);
  });

  it('orders the pages added as Markdown as localeCompare does, whether their names are plain (sorted without ICU) or not', () => {
    const contentOrder = (names: string[]) =>
      siteRoutes(names.map((name) => page(name, 'en', name)))
        .allRoutes(['en'])
        .slice(allRoutes(['en']).length)
        .map((r) => r.page);
    const byLocale = (names: string[]) => names.map((name) => `content:${name}`).sort((a, b) => a.localeCompare(b));
    // Hyphens before digits before letters, a name before its longer forms: where code units and ICU's root order could part.
    const plain = ['ab', 'a-b', 'a', 'a1', 'a-1', 'b', '9z', '10', '1-0', 'a--b', 'zz', 'z-'];
    expect(contentOrder(plain)).toEqual(byLocale(plain));
    // A name that is not plain (upper case, an underscore: code units would put B before a) keeps ICU's order for all.
    const mixed = [...plain, 'B', 'a_b'];
    expect(contentOrder(mixed)).toEqual(byLocale(mixed));
    expect(contentOrder(mixed).indexOf('content:B')).toBeGreaterThan(contentOrder(mixed).indexOf('content:a1'));
  });

  it('gives a page\'s URL only in the languages that have it', () => {
    expect(routes.pathFor('content:healthcare', 'es')).toBe('/es/sanidad');
    expect(routes.pathFor('content:healthcare', 'de')).toBeUndefined();
    expect(routes.pathFor('privacy', 'de')).toBe('/de/datenschutz');
  });

  it('lists hreflang alternates among the languages present, x-default English or else the first language', () => {
    expect(routes.alternatesFor('content:healthcare')).toEqual([{ lang: 'en', path: '/healthcare' }, { lang: 'es', path: '/es/sanidad' }]);
    expect(routes.xDefaultFor('content:healthcare')).toBe('/healthcare');
    expect(routes.xDefaultFor('content:lokaal')).toBe('/nl/lokaal/aanbod');
    expect(routes.alternatesFor('about')).toHaveLength(7);
  });

  it('leads the language menu to a language\'s home page where the page has no text in it', () => {
    expect(routes.languageLinkFor('content:healthcare', 'es')).toBe('/es/sanidad');
    expect(routes.languageLinkFor('content:healthcare', 'de')).toBe('/de');
    expect(routes.languageLinkFor('content:healthcare', 'fr')).toBe('/fr');
  });

  it('places links by language, sorted by navOrder then label', () => {
    expect(routes.placedLinks('footer', 'en').map((l) => `${l.label} ${l.href}`)).toEqual(['Banking /banking', 'Healthcare /healthcare']);
    expect(routes.placedLinks('footer', 'es').map((l) => l.href)).toEqual(['/es/sanidad']);
    expect(routes.placedLinks('header', 'en')).toEqual([]);
  });

  it('lists the industry pages (nav: solutions) for the solutions page, with their descriptions', () => {
    expect(routes.placedLinks('solutions', 'en')).toEqual([{ page: 'content:retail', href: '/retail', label: 'Retail', description: 'Mask shoppers’ data.' }]);
    expect(routes.placedLinks('solutions', 'es')).toEqual([]);
  });

  it('lists the regulation pages (nav: regulations) apart from the industry pages', () => {
    expect(routes.placedLinks('regulations', 'en')).toEqual([{ page: 'content:gdpr', href: '/gdpr', label: 'GDPR', description: 'What the GDPR asks.' }]);
    expect(routes.placedLinks('solutions', 'en').map((l) => l.page)).not.toContain('content:gdpr');
  });
});

describe('the how-it-works page', () => {
  it('has its own URL in every language', () => {
    expect(allRoutes().filter((r) => r.page === 'howItWorks').map((r) => r.path)).toEqual([
      '/how-it-works', '/es/como-funciona', '/pt/como-funciona', '/fr/fonctionnement', '/de/so-funktioniert-es', '/it/come-funziona', '/nl/hoe-het-werkt',
    ]);
  });
});

describe('reservedPathReason', () => {
  it('refuses the URL of a fixed page or alias, a language code and reserved segments', () => {
    expect(reservedPathReason('en', '/about')).toBe('it is the URL of the about page');
    expect(reservedPathReason('de', '/de/loesungen')).toBe('it is the URL of the solutions page');
    expect(reservedPathReason('es', '/es/aviso-legal')).toBe('it is the URL of the legalNotice page');
    expect(reservedPathReason('en', '/aviso-legal')).toBe('it is the URL of the legalNotice page');
    expect(reservedPathReason('en', '/de/anything')).toMatch(/"de" is reserved/);
    expect(reservedPathReason('en', '/assets')).toMatch(/"assets" is reserved/);
    expect(reservedPathReason('fr', '/fr/404')).toMatch(/"404" is reserved/);
  });

  it('accepts a free URL', () => {
    expect(reservedPathReason('en', '/healthcare')).toBeUndefined();
    expect(reservedPathReason('de', '/de/about-us')).toBeUndefined();
  });
});

describe('contentPageLookup', () => {
  it('finds a page added as Markdown by its language and the page id a route names, and nothing for another language or a template page', () => {
    const pages = [
      { name: 'healthcare', lang: 'en' as const },
      { name: 'healthcare', lang: 'de' as const },
      { name: 'banking', lang: 'de' as const },
    ];
    const pageOf = contentPageLookup(pages);
    expect(pageOf('de', 'content:healthcare')).toBe(pages[1]);
    expect(pageOf('en', 'content:healthcare')).toBe(pages[0]);
    expect(pageOf('en', 'content:banking')).toBeUndefined();
    expect(pageOf('de', 'about')).toBeUndefined();
  });
});
