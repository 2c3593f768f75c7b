import type { SiteConfig } from '../site/site-config.ts';

/**
 * The Organization description search engines read from the home pages (schema.org JSON-LD):
 * name, legal name, URL, logo, contact details, address and the social profiles.
 *
 * @example organizationJsonLd(site, 'https://www.maskwise.io/icon-512.png')['@type'] // 'Organization'
 */
export function organizationJsonLd(site: SiteConfig, logoUrl: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
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

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no value can end the element. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
