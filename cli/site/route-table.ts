import { SERVICE_PAGES as SERVICE_PAGE_PATHS, type ServicePage } from '../../ingest/contract/service-pages.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from './languages.ts';

/**
 * The routes table: the only place the site's URLs are defined. Links, the language menu,
 * canonical and hreflang alternates, the sitemap, host configs and tests all read it.
 */
export const PAGES = ['home', 'about', 'solutions', 'contact', 'contactDemo', 'contactSales', 'cookies', 'legalNotice', 'privacy', 'dataHandling', 'howItWorks'] as const;

/**
 * The pages the ingest service sends people to (the links in its mails, the answers to plain form
 * posts): the newsletter's confirm and unsubscribe pages with their button, and what follows; the
 * results of a form posted without JavaScript (check your inbox, not accepted with its reason, too
 * many attempts, not stored); those of a contact message sent without JavaScript (check your
 * inbox, the confirm page with its button, sent, link not valid). Not for search engines:
 * `noindex`, no canonical or hreflang links, outside the sitemap. Their ids and paths are the
 * contract's (`ingest/contract/service-pages.ts`), the one table both programs read.
 */
export const SERVICE_PAGES = Object.keys(SERVICE_PAGE_PATHS) as ServicePage[];

/** A page the ingest service links or redirects to. */
export type ServicePageId = ServicePage;

export type PageId = (typeof PAGES)[number] | ServicePageId;

/** Each fixed page's URL path in every language. */
export const ROUTES: Readonly<Record<PageId, Readonly<Record<Lang, string>>>> = {
  home: { en: '/', es: '/es', pt: '/pt', fr: '/fr', de: '/de', it: '/it', nl: '/nl' },
  about: localised('/about'),
  solutions: {
    en: '/solutions',
    es: '/es/soluciones',
    pt: '/pt/solucoes',
    fr: '/fr/solutions',
    de: '/de/loesungen',
    it: '/it/soluzioni',
    nl: '/nl/oplossingen',
  },
  contact: localised('/contact'),
  // The contact form with its reason chosen: where "Schedule a demo" and "Contact sales" lead, so a
  // message sent without JavaScript keeps its reason (the page's own form has it selected).
  contactDemo: localised('/contact/demo'),
  contactSales: localised('/contact/sales'),
  cookies: localised('/cookies'),
  legalNotice: {
    en: '/legal-notice',
    es: '/es/aviso-legal',
    pt: '/pt/aviso-legal',
    fr: '/fr/mentions-legales',
    de: '/de/impressum',
    it: '/it/note-legali',
    nl: '/nl/juridische-kennisgeving',
  },
  privacy: {
    en: '/privacy',
    es: '/es/privacidad',
    pt: '/pt/privacidade',
    fr: '/fr/confidentialite',
    de: '/de/datenschutz',
    it: '/it/privacy',
    nl: '/nl/privacy',
  },
  // How this site treats your data: the plain summary of the privacy policy, built from the facts table.
  dataHandling: {
    en: '/data-handling',
    es: '/es/tratamiento-de-datos',
    pt: '/pt/tratamento-de-dados',
    fr: '/fr/traitement-des-donnees',
    de: '/de/datenverarbeitung',
    it: '/it/trattamento-dei-dati',
    nl: '/nl/gegevensverwerking',
  },
  // How the product works: its two modes, the administrator tools, the supported databases and their roadmap.
  howItWorks: { en: '/how-it-works', es: '/es/como-funciona', pt: '/pt/como-funciona', fr: '/fr/fonctionnement', de: '/de/so-funktioniert-es', it: '/it/come-funziona', nl: '/nl/hoe-het-werkt' },
  ...(Object.fromEntries(SERVICE_PAGES.map((page) => [page, localised(SERVICE_PAGE_PATHS[page])])) as Record<ServicePageId, Record<Lang, string>>),
};

/** Extra URLs that serve a page of the table under another address; their canonical is the table's URL. */
export const ALIASES: readonly { path: string; page: PageId; lang: Lang }[] = [
  { path: '/aviso-legal', page: 'legalNotice', lang: 'es' },
];

function localised(slug: string): Record<Lang, string> {
  return Object.fromEntries(LANGUAGES.map((l) => [l, l === DEFAULT_LANG ? slug : `/${l}${slug}`])) as Record<Lang, string>;
}
