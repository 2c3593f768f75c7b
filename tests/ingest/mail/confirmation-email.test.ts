/**
 * The confirmation mail: in the signup's language, with the content's texts, a working link to
 * the confirm page, RFC 8058 unsubscribe headers, and nothing the visitor typed but the address.
 */
import { describe, expect, it } from 'vitest';
import { confirmationEmail } from '../../../ingest/mail/messages/confirmation-email.ts';
import { contactConfirmationEmail } from '../../../ingest/mail/messages/contact-confirmation-email.ts';
import { consentLinks } from '../../../ingest/consent/links.ts';
import { LANGS } from '../../../ingest/contract/schemas.ts';
import { SECRET, SITE_CONTENT } from '../fixtures.ts';

const urls = { siteUrl: 'https://www.example.com', apiUrl: 'https://www.example.com/api' };
const links = consentLinks(SECRET);
const MESSAGE_KEY = '5b2c0d8e9f1a4b3c6d7e8f9a0b1c2d3e';

function subscription(overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    name: '<b>Buy cheap pills at evil.example</b>',
    email: 'Ana@example.com',
    email_lower: 'ana@example.com',
    privacy_consent: 1,
    marketing_consent: 0,
    lang: 'de',
    privacy_version: '2026-11-23',
    consent_at: '2026-11-23T09:00:00.000Z',
    created_at: '2026-11-23T09:00:00.000Z',
    status: 'pending' as const,
    confirmed_at: null,
    consent_hash: 'abc',
    expires_at: '2026-11-30T09:00:00.000Z',
    confirm_mails: 1,
    confirm_mail_day: '2026-11-23',
    last_confirm_mail_at: '2026-11-23T09:00:00.000Z',
    ...overrides,
  };
}

const render = (overrides: Record<string, unknown> = {}) =>
  confirmationEmail(subscription(overrides), { id: 99, messageKey: MESSAGE_KEY }, { content: SITE_CONTENT, links, urls, linkDays: 7, from: 'news@example.com' });

describe('the confirmation mail', () => {
  it('is written in the signup language with the content texts, placeholders filled', () => {
    for (const lang of LANGS) {
      const mail = render({ lang });
      const texts = SITE_CONTENT.texts[lang].mail.confirm;
      expect(mail.subject).toBe(texts.subject.replace('{{brand}}', SITE_CONTENT.brand));
      expect(mail.text).toContain(texts.expiry.replace('{{days}}', '7'));
      expect(mail.html).toContain(`<html lang="${lang}">`);
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/\{\{/);
    }
  });

  it('links to the confirm page of its language with a token valid until the row expires', () => {
    const mail = render();
    const url = new URL(/https:\/\/www\.example\.com\/de\/newsletter\/confirm\?token=\S+/.exec(mail.text)![0]);
    const parsed = links.parse(url.searchParams.get('token'), 'confirm')!;
    expect(parsed.expiresAt).toBe(Date.parse('2026-11-30T09:00:00.000Z'));
    expect(links.check(parsed, subscription(), Date.parse('2026-11-29T09:00:00.000Z'))).toBe('valid');
    expect(mail.html).toContain(`href="${url.href.replace(/&/g, '&amp;')}"`);
  });

  it('carries List-Unsubscribe (one-click, RFC 8058) and a visible unsubscribe link with a token that never expires', () => {
    const mail = render();
    const header = /^<(https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?token=(\S+))>$/.exec(mail.headers!['List-Unsubscribe']!)!;
    expect(mail.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const token = decodeURIComponent(header[2]!);
    expect(links.check(links.parse(token, 'unsubscribe')!, subscription(), Date.parse('2036-01-01'))).toBe('valid');
    expect(mail.text).toContain(`https://www.example.com/de/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
  });

  it('goes to the address only, and holds nothing else the visitor typed (not the name)', () => {
    const mail = render();
    expect(mail.to).toBe('Ana@example.com');
    expect(mail.replyTo).toBeUndefined();
    expect(JSON.stringify(mail)).not.toMatch(/pills|evil\.example/);
    expect(mail.messageId).toBe(`<${MESSAGE_KEY}.newsletter-7.outbox-99@example.com>`);
  });
});

describe('the contact confirmation mail (a contact sent without JavaScript)', () => {
  const contactRow = {
    id: 12,
    first_name: 'Buy',
    last_name: 'cheap pills',
    email: 'lena@example.de',
    email_lower: 'lena@example.de',
    phone: null,
    company_name: 'evil.example',
    country: 'de',
    message: 'Visit evil.example for cheap pills',
    lang: 'nl',
    created_at: '2026-11-23T09:00:00.000Z',
    intent: 'general',
    source_page: null,
    verified_at: null,
    expires_at: '2026-11-30T09:00:00.000Z',
    webhook_waiting: 0,
  };

  it('is in the message language, links to the contact confirm page with an expiring token, and holds nothing the sender typed but the address', () => {
    const mail = contactConfirmationEmail(contactRow, { id: 5, messageKey: MESSAGE_KEY }, { content: SITE_CONTENT, links, urls, linkDays: 7, from: 'news@example.com' });
    expect(mail.subject).toBe(SITE_CONTENT.texts.nl.mail.contactConfirm.subject.replace('{{brand}}', SITE_CONTENT.brand));
    expect(mail.to).toBe('lena@example.de');
    expect(JSON.stringify(mail)).not.toMatch(/pills|evil\.example/);
    const url = new URL(/https:\/\/www\.example\.com\/nl\/contact\/confirm\?token=\S+/.exec(mail.text)![0]);
    const parsed = links.parse(url.searchParams.get('token'), 'contact')!;
    expect(links.check(parsed, contactRow, Date.parse('2026-11-29T09:00:00.000Z'))).toBe('valid');
    expect(links.check(parsed, contactRow, Date.parse('2026-11-30T09:00:00.000Z'))).toBe('expired');
  });
});
