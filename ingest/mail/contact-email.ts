/**
 * Renders the email sales receive for one contact: pure data in, a nodemailer message out.
 *
 * Every field appears in both the plain-text and the HTML body; the HTML escapes everything.
 * Header injection is impossible twice over: the contract already rejects control characters in
 * names, and here the subject and display names are flattened to one line again in case a row
 * ever arrives from elsewhere. The visitor's address goes into `Reply-To` as a structured
 * `{ name, address }`, never as a string nodemailer would have to parse.
 */
import type { Selectable } from 'kysely';
import type { ContactsTable } from '../store/tables.ts';

/** The fields nodemailer needs, in its own shape. */
export interface ContactEmail {
  from: string;
  to: string;
  replyTo: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** Collapses every control, line-break or bidi character to a space: `'Ana\r\nBcc: x'` → `'Ana Bcc: x'`. */
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu, ' ').trim();
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and attribute values: `'<b>&'` → `'&lt;b&gt;&amp;'`. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

/** Builds the message for contact `contact`, queued as outbox row `outboxId`. */
export function contactEmail(
  contact: Selectable<ContactsTable>,
  envelope: { from: string; to: string; outboxId: number },
): ContactEmail {
  const name = oneLine(`${contact.first_name} ${contact.last_name}`);
  const company = contact.company_name === null ? null : oneLine(contact.company_name);
  const country = `${regionNames.of(contact.country.toUpperCase()) ?? contact.country} (${contact.country})`;
  const language = `${languageNames.of(contact.lang) ?? contact.lang} (${contact.lang})`;
  const rows: Array<[string, string]> = [
    ['Name', `${contact.first_name} ${contact.last_name}`],
    ['Email', contact.email],
    ['Phone', contact.phone ?? '—'],
    ['Company', contact.company_name ?? '—'],
    ['Country', country],
    ['Language', language],
    ['Received', contact.created_at],
  ];
  const text = [
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    'Message:',
    contact.message,
    '',
    'Reply to this email to answer the visitor.',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<h1>Contact form: ${escapeHtml(name)}</h1>`,
    '<table>',
    ...rows.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<h2>Message</h2><p style="white-space:pre-wrap">${escapeHtml(contact.message)}</p>`,
    '<p>Reply to this email to answer the visitor.</p>',
    '</body></html>',
  ].join('\n');
  return {
    from: envelope.from,
    to: envelope.to,
    replyTo: { name, address: oneLine(contact.email) },
    subject: company ? `Contact form: ${name} (${company})` : `Contact form: ${name}`,
    text,
    html,
    // Stable per outbox row: should a crash ever cause a second send, mail clients see one message.
    messageId: `<contact-${contact.id}.outbox-${envelope.outboxId}@ingest.invalid>`,
    date: new Date(contact.created_at),
  };
}
