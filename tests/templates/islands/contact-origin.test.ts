/**
 * Where the contact links lead (the contact page of their reason) and what the contact form learns
 * from the URL it was opened with: the site page the visitor came from, never anything that is not
 * a plain path of this site.
 */
import { describe, expect, it } from 'vitest';
import { sourcePageOf } from '../../../templates/islands/components/contact-origin.ts';
import { contactLink, intentOfPage } from '../../../templates/forms/contact-link.ts';

const HERE = 'https://www.maskwise.io/de/contact';

describe('contact links', () => {
  it('lead to the contact page of their reason, landing on the form', () => {
    expect(contactLink('de', 'demo')).toBe('/de/contact/demo#contact-form');
    expect(contactLink('en', 'sales')).toBe('/contact/sales#contact-form');
    expect(contactLink('fr', 'general')).toBe('/fr/contact#contact-form');
  });

  it('name the page they are on, which the form reads back as where the visitor came from', () => {
    const link = contactLink('de', 'demo', '/de/about');
    expect(link).toBe('/de/contact/demo?from=/de/about#contact-form');
    const url = new URL(link, 'https://www.maskwise.io');
    expect(sourcePageOf(url.search, 'https://www.maskwise.io/de/about', url.href)).toBe('/de/about');
    expect(contactLink('en', 'sales', '/')).toBe('/contact/sales?from=/#contact-form');
    // Never anything but a plain site path.
    expect(contactLink('en', 'demo', 'https://evil.example/')).toBe('/contact/demo#contact-form');
  });

  it('each reason has its page, and only the contact pages have a reason', () => {
    expect(['contact', 'contactDemo', 'contactSales', 'about', 'notFound'].map(intentOfPage)).toEqual(['general', 'demo', 'sales', undefined, undefined]);
  });
});

describe('the page the visitor came from', () => {
  it('is the from parameter when a link gives one, if it is a site path', () => {
    expect(sourcePageOf('?from=/de/about', 'https://www.maskwise.io/de', HERE)).toBe('/de/about');
    expect(sourcePageOf('?from=https://evil.example/', 'https://www.maskwise.io/de', HERE)).toBeNull();
    expect(sourcePageOf('?from=//evil.example', '', HERE)).toBeNull();
  });

  it('is otherwise the path of a referrer on the same site, but not the contact page itself', () => {
    expect(sourcePageOf('', 'https://www.maskwise.io/de/datenschutz', HERE)).toBe('/de/datenschutz');
    expect(sourcePageOf('', 'https://www.maskwise.io/', HERE)).toBe('/');
    expect(sourcePageOf('', 'https://www.maskwise.io/de/contact', HERE)).toBeNull();
    expect(sourcePageOf('', 'https://search.example/?q=maskwise', HERE)).toBeNull();
    expect(sourcePageOf('', 'http://www.maskwise.io/de', HERE)).toBeNull();
    expect(sourcePageOf('', '', HERE)).toBeNull();
  });
});
