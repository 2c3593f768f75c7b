/**
 * Why the visitor writes and where from: `intent` is one of three values, `sourcePage` a path of
 * this site and nothing that could lead elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_INTENTS, contactSchema, fieldIssues, isSitePath, LIMITS, validate } from '../../../ingest/contract/schemas.ts';
import { contact } from '../fixtures.ts';

const body = (overrides: Record<string, unknown>) => contact({ captcha: { token: 't', answer: 3 }, ...overrides });

describe('contact intent', () => {
  it('accepts demo, sales and general, and leaves it absent when the form sent none (stored as general)', () => {
    expect(CONTACT_INTENTS).toEqual(['demo', 'sales', 'general']);
    for (const intent of CONTACT_INTENTS) {
      const result = validate(contactSchema, body({ intent }));
      expect(result.ok && result.data.intent).toBe(intent);
    }
    const absent = validate(contactSchema, body({}));
    expect(absent.ok && absent.data.intent).toBeUndefined();
  });

  it('refuses any other value', () => {
    expect(fieldIssues(contactSchema, body({ intent: 'pricing' }))).toEqual({ intent: 'required' });
    expect(fieldIssues(contactSchema, body({ intent: 1 }))).toEqual({ intent: 'required' });
  });
});

describe('contact source page', () => {
  it('takes a path of the site as it is; null or absent mean unknown', () => {
    for (const path of ['/', '/de', '/de/about', '/fr/mentions-legales', '/es/privacidad', '/x_y.z~%C3%A9']) {
      const result = validate(contactSchema, body({ sourcePage: path }));
      expect(result.ok && result.data.sourcePage, path).toBe(path);
    }
    const unknown = validate(contactSchema, body({ sourcePage: null }));
    expect(unknown.ok && unknown.data.sourcePage).toBeNull();
    const absent = validate(contactSchema, body({}));
    expect(absent.ok && absent.data.sourcePage).toBeUndefined();
  });

  it('refuses a scheme, a host, a query, a fragment, spaces, control characters and anything too long', () => {
    const refused = [
      '', ' /de', 'https://evil.example/de', '//evil.example/x', 'evil.example/x', 'javascript:alert(1)', 'de/about',
      '/de?intent=demo', '/de#top', '/de about', '/de\r\nBcc: x@example.com', '/\\evil.example', `/${'a'.repeat(LIMITS.sourcePage)}`, 42,
    ];
    for (const value of refused) {
      expect(fieldIssues(contactSchema, body({ sourcePage: value })), String(value)).toHaveProperty('sourcePage');
    }
  });

  it('offers the same test to the island, which sends only what the service accepts', () => {
    expect(isSitePath('/de/about')).toBe(true);
    expect(isSitePath('//evil.example')).toBe(false);
    expect(isSitePath('https://evil.example/')).toBe(false);
    expect(isSitePath(`/${'a'.repeat(LIMITS.sourcePage - 1)}`)).toBe(true);
    expect(isSitePath(`/${'a'.repeat(LIMITS.sourcePage)}`)).toBe(false);
  });
});
