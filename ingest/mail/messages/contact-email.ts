/**
 * Renders the email sales receive for one contact: pure data in, a nodemailer message out.
 *
 * Every field appears in both the plain-text and the HTML body; the HTML escapes everything.
 * Header injection is impossible twice over: the contract already rejects control characters in
 * names, and here the subject and display names are flattened to one line again in case a row
 * ever arrives from elsewhere. The visitor's address goes into `Reply-To` as a structured
 * `{ name, address }`, never as a string nodemailer would have to parse.
 *
 * No visitor text is ever read as an RFC 2047 encoded-word: nodemailer passes a valid
 * `=?utf-8?B?…?=` through as already encoded (and only quotes it in a display name, which many
 * clients decode anyway), so a name could smuggle a decoded `CR LF Bcc:` line into what sales
 * see. Visitor text containing `=?` is therefore written into the Subject as encoded-words of its
 * own, which decode to exactly what the visitor typed, and is left out of the Reply-To display
 * name, which nodemailer offers no way to encode. Text without `=?` holds nothing a decoder could
 * misread; nodemailer encodes its non-ASCII characters itself.
 */
import type { Selectable } from 'kysely';
import type { ContactsTable } from '../../store/tables.ts';
import { escapeHtml } from './escape-html.ts';
import type { OutgoingMail } from '../mailer.ts';
import { outboxMessageId, type OutboxRef } from './message-id.ts';

/** The sales mail: an outgoing mail whose `Reply-To` is the visitor. */
export interface ContactEmail extends OutgoingMail {
  replyTo: { name: string; address: string };
}

/** Who sends the sales email to whom, and the sales team's time zone (`SALES_TIMEZONE`). */
export interface SalesEnvelope {
  from: string;
  to: string;
  /** The IANA zone the email shows its times in; `Europe/Madrid` when absent. */
  timeZone?: string;
}

const DEFAULT_TIME_ZONE = 'Europe/Madrid';

// Country and language names in English, the sales team's language, whatever the visitor's.
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** How the email names each intent; the subject of a general message keeps the original wording. */
const INTENTS: Readonly<Record<string, { label: string; subject: string }>> = {
  demo: { label: 'Demo request', subject: 'Demo request from ' },
  sales: { label: 'Sales question', subject: 'Sales question from ' },
  general: { label: 'General question', subject: 'Contact form: ' },
};

/** Collapses every control, line-break or bidi character to a space: `'Ana\r\nBcc: x'` → `'Ana Bcc: x'`. */
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu, ' ').trim();
}

// RFC 2047: an encoded-word is at most 75 characters; 45 bytes of UTF-8 make 60 of base64 plus 12.
const ENCODED_WORD_BYTES = 45;

/**
 * Writes text as RFC 2047 encoded-words (UTF-8, base64), split between characters, never inside
 * one: `encodedWords('=?x?=')` → `'=?UTF-8?B?PT94Pz0=?='`.
 */
function encodedWords(text: string): string {
  const words: string[] = [];
  let word = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > ENCODED_WORD_BYTES) {
      words.push(word);
      word = '';
      bytes = 0;
    }
    word += char;
    bytes += size;
  }
  if (word !== '') words.push(word);
  return words.map((chunk) => `=?UTF-8?B?${Buffer.from(chunk, 'utf8').toString('base64')}?=`).join(' ');
}

/** Visitor text for an unstructured header: as it is, or as encoded-words when a decoder could misread it. */
function headerText(value: string): string {
  return value.includes('=?') ? encodedWords(value) : value;
}

/**
 * The moment `iso` on the sales team's clock, with the zone spelled out:
 * `localTime('2026-11-23T04:56:48.933Z', 'Europe/Madrid')` → `'Mon, 23 Nov 2026, 05:56 CET (Europe/Madrid)'`.
 */
export function localTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
  return `${local} (${timeZone})`;
}

/**
 * A phone number as a `tel:` URI, digits and a leading `+` only, or null when it has no digit:
 * `telUri('+34 (600) 00-00-00')` → `'tel:+34600000000'`.
 */
export function telUri(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  return digits === '' ? null : `tel:${phone.trim().startsWith('+') ? '+' : ''}${digits}`;
}

/** A link for the HTML part; `href` and text are escaped. */
function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/** Builds the message for contact `contact`, queued as outbox row `envelope.outbox`. */
export function contactEmail(
  contact: Selectable<ContactsTable>,
  envelope: SalesEnvelope & { outbox: OutboxRef },
): ContactEmail {
  const name = oneLine(`${contact.first_name} ${contact.last_name}`);
  const company = contact.company_name === null ? null : oneLine(contact.company_name);
  const intent = INTENTS[contact.intent] ?? { label: oneLine(contact.intent), subject: 'Contact form: ' };
  const country = `${regionNames.of(contact.country.toUpperCase()) ?? contact.country} (${contact.country})`;
  const language = `${languageNames.of(contact.lang) ?? contact.lang} (${contact.lang})`;
  const tel = contact.phone === null ? null : telUri(contact.phone);
  // [label, plain text, HTML (escaped) when it is more than the escaped text]
  const rows: Array<[string, string, string?]> = [
    ['Intent', intent.label],
    ['Name', `${contact.first_name} ${contact.last_name}`],
    ['Email', contact.email, link(`mailto:${encodeURIComponent(contact.email).replace(/%40/g, '@')}`, contact.email)],
    ['Phone', contact.phone ?? '—', contact.phone !== null && tel !== null ? link(tel, contact.phone) : undefined],
    ['Company', contact.company_name ?? '—'],
    ['Country', country],
    ['Language', language],
    ['Source page', contact.source_page ?? 'unknown'],
    ['Received', localTime(contact.created_at, envelope.timeZone ?? DEFAULT_TIME_ZONE)],
    ['Received (UTC)', contact.created_at],
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
    // The charset also makes the part readable as a file of its own (`ingest preview-mail`).
    '<!doctype html><html><head><meta charset="utf-8"></head><body>',
    `<h1>${escapeHtml(intent.label)}: ${escapeHtml(name)}</h1>`,
    '<table cellpadding="4">',
    ...rows.map(([label, value, rich]) => `<tr><th align="left" valign="top">${label}</th><td>${rich ?? escapeHtml(value)}</td></tr>`),
    '</table>',
    `<h2>Message</h2><p style="white-space:pre-wrap">${escapeHtml(contact.message)}</p>`,
    '<p>Reply to this email to answer the visitor.</p>',
    '</body></html>',
  ].join('\n');
  return {
    from: envelope.from,
    to: envelope.to,
    replyTo: { name: name.includes('=?') ? '' : name, address: oneLine(contact.email) },
    subject: `${intent.subject}${headerText(company ? `${name} (${company})` : name)}`,
    text,
    html,
    // Stable per outbox row: should a crash ever cause a second send, mail clients see one message.
    messageId: outboxMessageId(`contact-${contact.id}`, envelope.outbox, envelope.from),
    date: new Date(contact.created_at),
  };
}
