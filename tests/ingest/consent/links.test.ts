/**
 * The signed links: a token works only for the row it was made for, with the key it was made
 * with, for its purpose, and (confirmation links) until it expires.
 */
import { describe, expect, it } from 'vitest';
import { consentLinks, oneClickUrl, pageUrl } from '../../../ingest/consent/links.ts';

const row = { id: 42, email_lower: 'ana@example.com', created_at: '2026-11-23T10:00:00.000Z', lang: 'de' };
const links = consentLinks('a-service-secret-of-enough-length-0123456789');
const now = Date.parse('2026-11-23T10:00:00.000Z');

describe('consent links', () => {
  it('makes a token that names the purpose, language and row but not the address, and checks as valid', () => {
    const token = links.sign('confirm', row, now + 7 * 86_400_000);
    expect(token).toMatch(/^c\.de\.42\.\d+\.[\w-]{43}$/);
    expect(token).not.toContain('ana');
    const parsed = links.parse(token, 'confirm')!;
    expect(parsed).toMatchObject({ purpose: 'confirm', lang: 'de', id: 42 });
    expect(links.check(parsed, row, now)).toBe('valid');
  });

  it('calls a token expired from its expiry on, and an unsubscribe token never expires', () => {
    const expiresAt = now + 1000;
    const parsed = links.parse(links.sign('confirm', row, expiresAt), 'confirm')!;
    expect(links.check(parsed, row, expiresAt - 1)).toBe('valid');
    expect(links.check(parsed, row, expiresAt)).toBe('expired');
    const unsubscribe = links.parse(links.sign('unsubscribe', row, null), 'unsubscribe')!;
    expect(unsubscribe.expiresAt).toBeNull();
    expect(links.check(unsubscribe, row, now + 10 * 365 * 86_400_000)).toBe('valid');
  });

  it('calls a token forged for another row, another address, another key, a changed field or a changed expiry', () => {
    const token = links.sign('confirm', row, now + 1000);
    const parsed = links.parse(token, 'confirm')!;
    expect(links.check(parsed, { ...row, email_lower: 'bo@example.com' }, now)).toBe('forged');
    expect(links.check(parsed, { ...row, created_at: '2026-11-24T10:00:00.000Z' }, now)).toBe('forged'); // the id reused by a later row
    expect(links.check(parsed, { ...row, id: 43 }, now)).toBe('forged');
    expect(consentLinks('another-secret-of-enough-length-0123456789').check(parsed, row, now)).toBe('forged');
    const [p, lang, id, expires, sig] = token.split('.');
    const later = links.parse([p, lang, id, String(Number(expires) + 86_400), sig].join('.'), 'confirm')!;
    expect(links.check(later, row, now)).toBe('forged');
    const english = links.parse([p, 'en', id, expires, sig].join('.'), 'confirm')!;
    expect(links.check(english, row, now)).toBe('forged');
  });

  it('parses nothing that is not a token of the purpose asked for', () => {
    const unsubscribe = links.sign('unsubscribe', row, null);
    expect(links.parse(unsubscribe, 'confirm')).toBeNull();
    for (const bad of [undefined, 42, '', 'c.de.42', 'c.xx.42.0.' + 'a'.repeat(43), 'c.de.42.0.' + 'a'.repeat(44), `${unsubscribe}\n`]) {
      expect(links.parse(bad, 'unsubscribe')).toBeNull();
    }
  });

  it('refuses a token whose id or expiry has leading zeros: one row, one spelling', () => {
    const token = links.sign('confirm', row, now + 1000);
    const [p, lang, id, expires, sig] = token.split('.');
    expect(links.parse([p, lang, `0${id}`, expires, sig].join('.'), 'confirm')).toBeNull();
    expect(links.parse([p, lang, `00${id}`, expires, sig].join('.'), 'confirm')).toBeNull();
    expect(links.parse([p, lang, id, `0${expires}`, sig].join('.'), 'confirm')).toBeNull();
    expect(links.parse([p, lang, '0', expires, sig].join('.'), 'confirm')).toBeNull();
    expect(links.parse(token, 'confirm')).not.toBeNull();
  });

  it('tells a genuine unsubscribe token from a forged one without the row, whatever id it names', () => {
    const token = links.sign('unsubscribe', row, null);
    expect(token).toMatch(/^u\.de\.42\.0\.[\w-]{43}\.[\w-]{22}$/);
    expect(links.isGenuine(links.parse(token, 'unsubscribe')!)).toBe(true);
    const [p, lang, , expires, sig, tag] = token.split('.');
    // Another id with the same signature and tag, or a made-up tag: not genuine.
    expect(links.isGenuine(links.parse([p, lang, '43', expires, sig, tag].join('.'), 'unsubscribe')!)).toBe(false);
    expect(links.isGenuine(links.parse([p, lang, '42', expires, sig, 'A'.repeat(22)].join('.'), 'unsubscribe')!)).toBe(false);
    expect(links.check(links.parse([p, lang, '42', expires, sig, 'A'.repeat(22)].join('.'), 'unsubscribe')!, row, now)).toBe('forged');
    // A token made before the tag existed still works while its row exists, and is not genuine without it.
    const untagged = links.parse([p, lang, '42', expires, sig].join('.'), 'unsubscribe')!;
    expect([links.check(untagged, row, now), links.isGenuine(untagged)]).toEqual(['valid', false]);
    // Confirmation and contact tokens carry no tag.
    expect(links.parse(`${links.sign('confirm', row, now + 1000)}.${'A'.repeat(22)}`, 'confirm')).toBeNull();
  });

  it('builds page and one-click addresses from the configured URLs only', () => {
    const urls = { siteUrl: 'https://www.example.com', apiUrl: 'https://www.example.com/api' };
    expect(pageUrl(urls, 'newsletterConfirm', 'de', 'c.de.1.2.x')).toBe('https://www.example.com/de/newsletter/confirm?token=c.de.1.2.x');
    expect(pageUrl(urls, 'linkInvalid', 'en')).toBe('https://www.example.com/newsletter/link-invalid');
    expect(oneClickUrl(urls, 'u.en.1.0.y')).toBe('https://www.example.com/api/newsletter/unsubscribe?token=u.en.1.0.y');
  });
});
