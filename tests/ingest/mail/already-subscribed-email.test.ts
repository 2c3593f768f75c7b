/**
 * The "already subscribed" mail (issue 22 item 6): the signup form answers a subscribed address
 * like any other, and its owner learns the state from this mail — in the subscription's language,
 * with the content's texts, an unsubscribe link and RFC 8058 headers, and nothing the visitor typed
 * but the address.
 */
import { describe, expect, it } from 'vitest';
import { alreadySubscribedEmail } from '../../../ingest/mail/messages/already-subscribed-email.ts';
import { typeset } from '../../../ingest/mail/messages/typography.ts';
import { consentLinks } from '../../../ingest/consent/links.ts';
import { LANGS } from '../../../ingest/contract/schemas.ts';
import { SECRET, SITE_CONTENT } from '../fixtures.ts';

const urls = { siteUrl: 'https://www.example.com', apiUrl: 'https://www.example.com/api' };
const links = consentLinks(SECRET);
const MESSAGE_KEY = '5b2c0d8e9f1a4b3c6d7e8f9a0b1c2d3e';
const QUEUED_AT = Date.parse('2026-11-24T10:00:00.000Z');

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
    status: 'confirmed' as const,
    confirmed_at: '2026-11-23T09:05:00.000Z',
    consent_hash: 'abc',
    expires_at: null,
    confirm_mails: 1,
    confirm_mail_day: '2026-11-23',
    last_confirm_mail_at: '2026-11-23T09:00:00.000Z',
    ...overrides,
  };
}

const render = (overrides: Record<string, unknown> = {}) =>
  alreadySubscribedEmail(subscription(overrides), { id: 99, messageKey: MESSAGE_KEY, queuedAt: QUEUED_AT }, { content: SITE_CONTENT, links, urls, from: 'news@example.com' });

describe('the "already subscribed" mail', () => {
  it('is written in the subscription language with the content texts, placeholders filled, and no button', () => {
    for (const lang of LANGS) {
      const mail = render({ lang });
      const texts = SITE_CONTENT.texts[lang].mail.alreadySubscribed;
      // The texts as written, with the language's punctuation (French: a narrow no-break space before a colon).
      expect(mail.subject).toBe(typeset(lang, texts.subject).replace('{{brand}}', SITE_CONTENT.brand));
      expect(mail.text).toContain(typeset(lang, texts.nothingToDo));
      expect(mail.html).toContain(`<html lang="${lang}">`);
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/\{\{|undefined/);
      // Nothing to confirm: no confirmation link.
      expect(mail.text).not.toContain('/newsletter/confirm');
    }
  });

  it('goes to the address only, with nothing else the visitor typed, dated when it was queued', () => {
    const mail = render();
    expect(mail.to).toBe('Ana@example.com');
    expect(`${mail.text}${mail.html}`).not.toMatch(/pills|evil/);
    expect(mail.date).toEqual(new Date(QUEUED_AT));
    expect(mail.messageId).toBe(`<${MESSAGE_KEY}.newsletter-7.outbox-99@example.com>`);
  });

  it('carries an unsubscribe link and RFC 8058 one-click headers with a token for the subscription', () => {
    const mail = render();
    const oneClick = /^<(.+)>$/.exec(mail.headers!['List-Unsubscribe']!)![1]!;
    expect(oneClick).toMatch(/^https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?token=/);
    expect(mail.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const token = new URL(oneClick).searchParams.get('token')!;
    expect(links.check(links.parse(token, 'unsubscribe')!, subscription(), QUEUED_AT)).toBe('valid');
    expect(mail.text).toContain(`https://www.example.com/de/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
  });
});
