/**
 * The Message-ID of a mail sent from an outbox row: the row's random `message_key` (made once
 * when the row was queued, `store/outbox-row.ts`), what the mail is about and its row, under the
 * sender's domain, the domain of `MAIL_FROM`:
 *
 *   outboxMessageId('newsletter-1', { id: 1, messageKey: '3f1c…' }, 'forms@example.com')
 *   → '<3f1c….newsletter-1.outbox-1@example.com>'
 *
 * The same row gives the same Message-ID on every retry (a receiver drops the copy of a mail sent
 * twice), and no other database gives it: row ids alone repeat on every fresh database.
 */

/** The outbox row a mail is sent from: its id and its random Message-ID part. */
export interface OutboxRef {
  id: number;
  messageKey: string;
}

// RFC 5322 id-right: a dot-atom (example.com, localhost) or an address literal ([192.0.2.1]).
const ID_RIGHT = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*|\[[\x21-\x5A\x5E-\x7E]*\])$/;

/** Where a mail that has no domain of its own says it comes from: a reserved name that is never anyone's. */
const FALLBACK_DOMAIN = 'ingest.invalid';

/**
 * The domain of sender `from`, bare or with a display name, lower-cased:
 * `senderDomain('Forms@Example.COM')` and `senderDomain('"MaskWise" <forms@example.com>')` → `'example.com'`;
 * `'ingest.invalid'` when it has none usable.
 */
export function senderDomain(from: string): string {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  const domain = at < 0 ? '' : address.slice(at + 1).toLowerCase();
  return ID_RIGHT.test(domain) ? domain : FALLBACK_DOMAIN;
}

/** The Message-ID of the mail about `about` (`contact-7`) sent from outbox row `outbox` by `from`. */
export function outboxMessageId(about: string, outbox: OutboxRef, from: string): string {
  return `<${outbox.messageKey}.${about}.outbox-${outbox.id}@${senderDomain(from)}>`;
}

/**
 * The `List-Id` (RFC 2919) of the newsletter's mails: the brand as its phrase and a label under the
 * sender's domain, so a mail program can file and filter them as one list:
 * `newsletterListId('MaskWise', 'forms@example.com')` → `'MaskWise <newsletter.example.com>'`.
 */
export function newsletterListId(brand: string, from: string): string {
  const phrase = /^[\w !#$%&'*+/=?^`{|}~-]+$/.test(brand) ? brand : `"${brand.replace(/["\\]/g, '')}"`;
  return `${phrase} <newsletter.${senderDomain(from)}>`;
}
