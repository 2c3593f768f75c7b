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
    replyTo: { name: name.includes('=?') ? '' : name, address: oneLine(contact.email) },
    subject: `Contact form: ${headerText(company ? `${name} (${company})` : name)}`,
    text,
    html,
    // Stable per outbox row: should a crash ever cause a second send, mail clients see one message.
    messageId: `<contact-${contact.id}.outbox-${envelope.outboxId}@ingest.invalid>`,
    date: new Date(contact.created_at),
  };
}
