/**
 * Renders the email sales receive for one contact: pure data in, a nodemailer message out. It
 * uses the layout of every mail (`mail-layout.ts`) and the texts of `mail.sales` in the language
 * of `SALES_LANG`, and shows the lead at a glance: the reason and the name in the subject and the
 * heading, then company, country, phone (a `tel:` link), the address, a reply button (`mailto:`),
 * the time on the sales team's clock, the page the visitor wrote from (a link) and the message.
 *
 * Every fact appears in both the plain-text and the HTML part; the HTML escapes everything.
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
import type { Lang } from '../../contract/languages.ts';
import type { SiteContent } from '../../site-content.ts';
import type { ContactsTable } from '../../store/tables.ts';
import type { OutgoingMail } from '../mailer.ts';
import { type MailFact, type MailLayout, mailHtml, mailText } from './mail-layout.ts';
import { outboxMessageId, type OutboxRef } from './message-id.ts';
import { filledTexts } from './visitor-mail-texts.ts';

/** The sales mail: an outgoing mail whose `Reply-To` is the visitor. */
export interface ContactEmail extends OutgoingMail {
  replyTo: { name: string; address: string };
}

/**
 * Who sends the sales email to whom, in which language and time zone (`SALES_LANG`,
 * `SALES_TIMEZONE`), and the site's content it takes its texts, brand and links from.
 */
export interface SalesEnvelope {
  from: string;
  to: string;
  /** The IANA zone the email shows its times in; `Europe/Madrid` when absent. */
  timeZone?: string;
  /** The sales team's language; English when absent. */
  lang?: Lang;
  content: SiteContent;
  /** The public site the source page links to; the content's `siteUrl` when absent (`SITE_URL`). */
  siteUrl?: string;
}

const DEFAULT_TIME_ZONE = 'Europe/Madrid';

/** Which text names each intent; a row from elsewhere with another intent reads as a question. */
const REASONS = { demo: 'reasonDemo', sales: 'reasonSales', general: 'reasonQuestion' } as const;

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

/**
 * The moment `iso` on the sales team's clock, in their language, with the zone spelled out:
 * `localTime('2026-11-23T04:56:48.933Z', 'Europe/Madrid')` → `'Mon, 23 Nov 2026, 05:56 CET (Europe/Madrid)'`,
 * with `'de'`: `'Mo., 23. Nov. 2026, 05:56 MEZ (Europe/Madrid)'`.
 */
export function localTime(iso: string, timeZone: string, lang: Lang = 'en'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // British English for `en`: day before month, 24-hour clock, as the rest of Europe reads it.
  const local = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, {
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

/** A `mailto:` URI for `address`, with everything but the `@` percent-encoded: `'a"b@x.org'` → `'mailto:a%22b@x.org'`. */
function mailtoUri(address: string): string {
  return `mailto:${encodeURIComponent(address).replace(/%40/g, '@')}`;
}

/** The page a contact was sent from as an absolute URL, or null when the stored value is no path of the site. */
function sourceUrl(siteUrl: string, path: string | null): string | null {
  return path !== null && /^\/(?!\/)[^\s"'<>\\]*$/.test(path) ? `${siteUrl}${path}` : null;
}

/** A region or language code named in `lang`, with the code: `('de', 'region', 'es')` → `'Spanien (es)'`. */
function named(lang: Lang, type: 'region' | 'language', code: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([lang], { type }).of(type === 'region' ? code.toUpperCase() : code);
  } catch {
    name = undefined; // not a well-formed code: shown as stored
  }
  return `${name ?? code} (${code})`;
}

/** Builds the message for contact `contact`, queued as outbox row `envelope.outbox`. */
export function contactEmail(
  contact: Selectable<ContactsTable>,
  envelope: SalesEnvelope & { outbox: OutboxRef },
): ContactEmail {
  const lang = envelope.lang ?? 'en';
  const siteUrl = envelope.siteUrl ?? envelope.content.siteUrl;
  const name = oneLine(`${contact.first_name} ${contact.last_name}`);
  const company = contact.company_name === null ? null : oneLine(contact.company_name);
  const who = company ? `${name} (${company})` : name;
  const texts = envelope.content.texts[lang].mail.sales;
  const reason = filledTexts(lang, texts, {})[REASONS[contact.intent as keyof typeof REASONS] ?? 'reasonQuestion'];
  const t = filledTexts(lang, texts, { brand: envelope.content.brand, reason, name });
  const subjectFor = (person: string) => filledTexts(lang, { subject: texts.subject }, { reason, name: person }).subject;
  const address = oneLine(contact.email);
  const tel = contact.phone === null ? null : telUri(contact.phone);
  const page = sourceUrl(siteUrl, contact.source_page);
  const facts: MailFact[] = [
    { label: t.company, value: contact.company_name ?? t.notGiven },
    { label: t.country, value: named(lang, 'region', contact.country) },
    contact.phone !== null && tel !== null ? { label: t.phone, value: contact.phone, href: tel } : { label: t.phone, value: contact.phone ?? t.notGiven },
    { label: t.email, value: contact.email, href: mailtoUri(contact.email) },
    { label: t.received, value: localTime(contact.created_at, envelope.timeZone ?? DEFAULT_TIME_ZONE, lang) },
    page === null ? { label: t.sourcePage, value: contact.source_page ?? t.unknownPage } : { label: t.sourcePage, value: page, href: page },
    { label: t.language, value: named(lang, 'language', contact.lang) },
  ];
  const layout: MailLayout = {
    lang,
    brand: { name: envelope.content.brand, siteUrl },
    title: subjectFor(who),
    preheader: [company, oneLine(contact.message).slice(0, 120)].filter(Boolean).join(' · '),
    heading: subjectFor(who),
    blocks: [
      { kind: 'facts', rows: facts },
      { kind: 'action', label: t.reply, href: mailtoUri(contact.email) },
      { kind: 'paragraph', text: t.replyHint },
      { kind: 'quote', label: t.message, text: contact.message },
    ],
    footer: [t.footer],
  };
  return {
    from: envelope.from,
    to: envelope.to,
    replyTo: { name: name.includes('=?') ? '' : name, address },
    // Visitor text that holds `=?` goes into the Subject as encoded-words only (see above).
    subject: who.includes('=?') ? encodedWords(subjectFor(who)) : subjectFor(who),
    text: mailText(layout),
    html: mailHtml(layout),
    // Stable per outbox row: should a crash ever cause a second send, mail clients see one message.
    messageId: outboxMessageId(`contact-${contact.id}`, envelope.outbox, envelope.from),
    date: new Date(contact.created_at),
  };
}
