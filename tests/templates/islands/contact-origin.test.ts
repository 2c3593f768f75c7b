/**
 * What the contact form learns from the URL it was opened with: the reason a button asked for, and
 * the site page the visitor came from, never anything that is not a plain path of this site.
 */
import { describe, expect, it } from 'vitest';
import { sourcePageOf } from '../../../templates/islands/components/contact-origin.ts';
import { contactLink, PRESELECT_INTENT_SCRIPT } from '../../../templates/forms/contact-link.ts';

const HERE = 'https://www.maskwise.io/de/contact';

describe('contact links', () => {
  it('carry the reason in the query and land on the form', () => {
    expect(contactLink('de', 'demo')).toBe('/de/contact?intent=demo#contact-form');
    expect(contactLink('en', 'sales')).toBe('/contact?intent=sales#contact-form');
    expect(contactLink('fr', 'general')).toBe('/fr/contact#contact-form');
  });

  it('are read back by the page\'s inline script, which selects the reason before the form hydrates', () => {
    // The script as the browser runs it: a page at `href` whose reason control shows `general`.
    const preselect = (href: string) => {
      const select = { id: 'contact-intent', value: 'general' };
      const document = { getElementById: (id: string) => (id === select.id ? select : null) };
      new Function('location', 'document', PRESELECT_INTENT_SCRIPT)(new URL(href, 'https://x.example'), document);
      return select.value;
    };
    for (const intent of ['demo', 'sales', 'general'] as const) expect(preselect(contactLink('it', intent))).toBe(intent);
    expect(preselect('/contact?from=/de&intent=sales')).toBe('sales');
    expect(preselect('/contact?intent=DEMO')).toBe('general');
    expect(preselect('/contact?intent=demo2')).toBe('general');
    expect(preselect('/contact?xintent=demo')).toBe('general');
    expect(preselect('/contact?intent=')).toBe('general');
    expect(preselect('/contact')).toBe('general');
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
