import type { SiteConfig } from '../../site/site-config.ts';
import type { Lang } from '../../site/languages.ts';

/** A schema.org node of a page's `@graph`; nodes refer to each other as `{ '@id': … }`. */
type JsonLdNode = Record<string, unknown> & { '@type': string; '@id'?: string };

/** The JSON-LD of one page: one `@context` and the nodes that describe it. */
export interface JsonLdGraph {
  '@context': 'https://schema.org';
  '@graph': JsonLdNode[];
}

/** What a page's structured data says, every text already in the page's language. */
export interface PageFacts {
  site: SiteConfig;
  lang: Lang;
  /** The absolute URL of the language's home page (`https://www.maskwise.io/de`). */
  homeUrl: string;
  /** The home link's name in this language ("Startseite"), the breadcrumb trail's first step. */
  homeName: string;
  /** The language's site description (the home page's meta description). */
  siteDescription: string;
  /** The absolute URL of the company logo. */
  logoUrl: string;
  /** The page's absolute URL: its canonical, or — for a page not to be indexed — where it is served. */
  url: string;
  /** Whether search engines may index the page (it has a canonical link). */
  indexed: boolean;
  /** The page's `<title>` and meta description. */
  title: string;
  description: string;
  /** The page's short name in its trail ("Datenschutzerklärung"); null for the home page, which has no trail. */
  breadcrumbName: string | null;
}

/** The `@id` of the company, the same on every page of every language. */
function organizationId(siteUrl: string): string {
  return `${siteUrl}/#organization`;
}

const ref = (id: string) => ({ '@id': id });

/** The company: name, legal name, URL, logo, contact details, address and social profiles. */
function organization({ site, logoUrl }: PageFacts): JsonLdNode {
  return {
    '@type': 'Organization',
    '@id': organizationId(site.siteUrl),
    name: site.brand,
    legalName: site.company.legalName,
    url: `${site.siteUrl}/`,
    logo: logoUrl,
    email: site.email,
    telephone: site.phone,
    taxID: site.company.taxId,
    address: { '@type': 'PostalAddress', streetAddress: site.company.address, addressLocality: site.location },
    sameAs: [site.social.linkedin, site.social.telegram, site.blogUrl],
  };
}

/**
 * The structured data of one page, as search engines document it: the `Organization` (one
 * `@id`, which the other nodes refer to), the language's `WebSite`, the `WebPage` that is part of
 * it, and — on the home page — the product as `SoftwareApplication` (no `offers`: the site
 * states no price), or — on every other page — its `BreadcrumbList` (home, then the page).
 *
 * @example structuredData(facts)['@graph'].map((n) => n['@type'])
 * // home: ['Organization', 'WebSite', 'WebPage', 'SoftwareApplication']
 * // else: ['Organization', 'WebSite', 'WebPage', 'BreadcrumbList']
 */
export function structuredData(facts: PageFacts): JsonLdGraph {
  const { site, lang, homeUrl, url, indexed, breadcrumbName } = facts;
  const organizationRef = ref(organizationId(site.siteUrl));
  const websiteId = `${homeUrl}#website`;
  const pageId = `${url}#webpage`;
  const website: JsonLdNode = {
    '@type': 'WebSite',
    '@id': websiteId,
    url: homeUrl,
    name: site.brand,
    description: facts.siteDescription,
    inLanguage: lang,
    publisher: organizationRef,
  };
  const webPage: JsonLdNode = {
    '@type': 'WebPage',
    '@id': pageId,
    ...(indexed ? { url } : {}),
    name: facts.title,
    description: facts.description,
    inLanguage: lang,
    isPartOf: ref(websiteId),
    publisher: organizationRef,
  };
  const graph: JsonLdNode[] = [organization(facts), website, webPage];
  if (breadcrumbName === null) {
    const applicationId = `${homeUrl}#software`;
    webPage.mainEntity = ref(applicationId);
    graph.push({
      '@type': 'SoftwareApplication',
      '@id': applicationId,
      name: site.brand,
      applicationCategory: site.product.applicationCategory,
      operatingSystem: site.product.operatingSystem,
      description: facts.siteDescription,
      url: homeUrl,
      inLanguage: lang,
      publisher: organizationRef,
    });
  } else {
    const trailId = `${url}#breadcrumb`;
    webPage.breadcrumb = ref(trailId);
    graph.push({
      '@type': 'BreadcrumbList',
      '@id': trailId,
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: facts.homeName, item: homeUrl },
        // The last step may go without a URL (Google: "not needed for the last item"); a page
        // that is not to be indexed gets none, so no crawler is sent to it.
        { '@type': 'ListItem', position: 2, name: breadcrumbName, ...(indexed ? { item: url } : {}) },
      ],
    });
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no value can end the element. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
