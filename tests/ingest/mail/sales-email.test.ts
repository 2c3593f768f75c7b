/**
 * What a salesperson reads: the reason and the name in the subject, then the lead at a glance —
 * company, country, phone to call, a reply button, the time on the sales team's clock, the page
 * the visitor wrote from, the message — in the language of `SALES_LANG`, in both parts, and as
 * it arrives through a real SMTP server.
 */
import type { Selectable } from 'kysely';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../ingest/config.ts';
import { LANGS, type Lang } from '../../../ingest/contract/languages.ts';
import { validate, contactSchema } from '../../../ingest/contract/schemas.ts';
import { contactEmail, localTime, telUri } from '../../../ingest/mail/messages/contact-email.ts';
import { startService } from '../../../ingest/server.ts';
import { MIGRATIONS, migrateToLatest } from '../../../ingest/store/migrations.ts';
import { openSqlite } from '../../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { ContactsTable } from '../../../ingest/store/tables.ts';
import { smtpPeer } from '../../helpers/smtp-peer.ts';
import { configFor, contact, eventually, migratedDb, postJson, SITE_CONTENT, solvedCaptcha, tempDir } from '../fixtures.ts';
import { headerOf, partOf } from './mail-parts.ts';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function row(overrides: Partial<Selectable<ContactsTable>> = {}): Selectable<ContactsTable> {
  return {
    id: 7,
    verified_at: '2026-11-23T08:00:00.000Z',
    expires_at: null,
    first_name: 'Ana',
    last_name: 'Pérez',
    email: 'ana@example.com',
    email_lower: 'ana@example.com',
    phone: '+34 (600) 00-00-00',
    company_name: 'Acme Datos',
    country: 'de',
    message: 'Hola',
    lang: 'de',
    created_at: '2026-11-23T04:56:48.933Z',
    intent: 'demo',
    source_page: '/de/about',
    webhook_waiting: 0,
    ...overrides,
  };
}

const envelope = {
  from: 'forms@example.com',
  to: 'sales@example.com',
  content: SITE_CONTENT,
  siteUrl: 'https://www.example.com',
  outbox: { id: 3, messageKey: '0123456789abcdef0123456789abcdef' },
};
const salesTexts = (lang: Lang) => SITE_CONTENT.texts[lang].mail.sales;
const NNBSP = '\u202F';

describe('the sales email', () => {
  it('names the reason and the visitor (and company) in the subject and the heading', () => {
    expect(contactEmail(row(), envelope).subject).toBe('Demo request from Ana Pérez (Acme Datos)');
    expect(contactEmail(row({ intent: 'sales', company_name: null }), envelope).subject).toBe('Sales question from Ana Pérez');
    expect(contactEmail(row({ intent: 'general' }), envelope).subject).toBe('Question from Ana Pérez (Acme Datos)');
    expect(contactEmail(row(), { ...envelope, lang: 'de' }).subject).toBe('Demo-Anfrage von Ana Pérez (Acme Datos)');
    expect(contactEmail(row({ intent: 'sales' }), { ...envelope, lang: 'fr' }).subject).toBe(`Question commerciale${NNBSP}: Ana Pérez (Acme Datos)`);
    const { html, text } = contactEmail(row(), envelope);
    expect(html).toContain('<title>Demo request from Ana Pérez (Acme Datos)</title>');
    expect(html).toMatch(/<h1[^>]*>Demo request from Ana Pérez \(Acme Datos\)<\/h1>/);
    expect(text.split('\n')[0]).toBe('Demo request from Ana Pérez (Acme Datos)');
  });

  it.each(LANGS)('is written in %s when SALES_LANG says so, for each reason, with every fact in both parts', (lang) => {
    const t = salesTexts(lang);
    for (const [intent, reason] of [['demo', t.reasonDemo], ['sales', t.reasonSales], ['general', t.reasonQuestion]] as const) {
      const mail = contactEmail(row({ intent }), { ...envelope, lang });
      expect(mail.subject).toContain(reason);
      expect(mail.subject).toContain('Ana Pérez');
      expect(mail.html).toContain(`<html lang="${lang}"`);
      const country = new Intl.DisplayNames([lang], { type: 'region' }).of('DE')!;
      for (const part of [mail.text, mail.html]) {
        for (const label of [t.company, t.country, t.phone, t.email, t.received, t.sourcePage, t.message]) expect(part).toContain(label);
        expect(part).toContain(`${country} (de)`);
        expect(part).toContain('Acme Datos');
        expect(part).toContain('+34 (600) 00-00-00');
        expect(part).toContain('https://www.example.com/de/about');
        expect(part).toContain('(Europe/Madrid)');
        expect(part).toContain(t.reply.replace('{{name}}', 'Ana Pérez'));
      }
      expect(mail.text).not.toContain('{{');
      expect(mail.html).not.toContain('{{');
    }
  });

  it('shows the time on the sales team clock (SALES_TIMEZONE) in their language', () => {
    expect(contactEmail(row(), envelope).text).toContain('Received: Mon, 23 Nov 2026, 05:56 CET (Europe/Madrid)');
    expect(contactEmail(row(), { ...envelope, timeZone: 'America/New_York' }).text).toContain('Received: Sun, 22 Nov 2026, 23:56 GMT-5 (America/New_York)');
    expect(localTime('2026-11-23T04:56:48.933Z', 'Europe/Berlin', 'de')).toBe('Mo., 23. Nov. 2026, 05:56 MEZ (Europe/Berlin)');
    expect(localTime('not a date', 'Europe/Madrid')).toBe('not a date');
  });

  it('puts the country and the language the visitor wrote in by name, in the sales team language', () => {
    const english = contactEmail(row({ country: 'de', lang: 'de' }), envelope).text;
    expect(english).toContain('Country: Germany (de)');
    expect(english).toContain('Language: German (de)');
    const spanish = contactEmail(row({ country: 'de', lang: 'fr' }), { ...envelope, lang: 'es' }).text;
    expect(spanish).toContain('País: Alemania (de)');
    expect(spanish).toContain('Idioma: francés (fr)');
  });

  it('links the phone with tel:, the address and the reply button with mailto:, and the source page, in the HTML part', () => {
    const { html, text } = contactEmail(row(), envelope);
    expect(html).toMatch(/<a href="tel:\+34600000000"[^>]*>\+34 \(600\) 00-00-00<\/a>/);
    expect(html).toMatch(/<a href="mailto:ana@example\.com"[^>]*>ana@example\.com<\/a>/);
    expect(html).toMatch(/<a href="mailto:ana@example\.com"[^>]*background:#0f766e[^>]*>Reply to Ana Pérez<\/a>/);
    expect(html).toMatch(/<a href="https:\/\/www\.example\.com\/de\/about"[^>]*>https:\/\/www\.example\.com\/de\/about<\/a>/);
    // The text part spells out every link.
    expect(text).toContain('Phone: +34 (600) 00-00-00 <tel:+34600000000>');
    expect(text).toContain('Reply to Ana Pérez: mailto:ana@example.com');
    expect(text).toContain('Sent from: https://www.example.com/de/about');
    const noPhone = contactEmail(row({ phone: null, company_name: null }), envelope);
    expect(noPhone.html).not.toContain('tel:');
    expect(noPhone.text).toContain('Phone: not given');
    expect(noPhone.text).toContain('Company: not given');
    expect(telUri('0049 30 1234-567')).toBe('tel:0049301234567');
    expect(telUri(' +1 555 0100 ext. 2')).toBe('tel:+155501002');
    expect(telUri('call me')).toBeNull();
  });

  it('says when the page is not known, and links no page that is not one of the site', () => {
    expect(contactEmail(row({ source_page: null }), envelope).text).toContain('Sent from: not recorded');
    const foreign = contactEmail(row({ source_page: '//evil.example/x' }), envelope);
    expect(foreign.html).not.toContain('href="//evil');
    expect(foreign.html).not.toContain('https://www.example.com//evil');
    expect(foreign.text).toContain('Sent from: //evil.example/x');
  });

  it('quotes the message with its line breaks in both parts', () => {
    const { html, text } = contactEmail(row({ message: 'Line one\nLine two' }), envelope);
    expect(text).toContain('Message:\nLine one\nLine two');
    expect(html).toMatch(/<blockquote[^>]*white-space:pre-wrap[^>]*>Line one\nLine two<\/blockquote>/);
  });

  it('escapes what a row from elsewhere could hold in the intent, source page and links', () => {
    const { html, subject } = contactEmail(
      row({ intent: '<b>x</b>', source_page: '/"><script>', email: 'a"b@example.com', phone: '+1 "><img>', message: '<script>alert(1)</script>' }),
      envelope,
    );
    expect(html).not.toMatch(/<script|<img>|<b>x/);
    expect(html).toContain('href="mailto:a%22b@example.com"');
    expect(html).not.toContain('href="https://www.example.com/&quot;');
    expect(subject).toBe('Question from Ana Pérez (Acme Datos)');
  });
});

describe('SALES_TIMEZONE and SALES_LANG', () => {
  it('default to Europe/Madrid and English, and accept any IANA zone and any of the site languages', () => {
    expect(resolveConfig({}, '/srv')).toMatchObject({ ok: true, config: { salesTimeZone: 'Europe/Madrid', salesLang: 'en' } });
    expect(resolveConfig({ SALES_TIMEZONE: 'America/New_York', SALES_LANG: 'nl' }, '/srv')).toMatchObject({
      ok: true,
      config: { salesTimeZone: 'America/New_York', salesLang: 'nl' },
    });
  });

  it('refuse a name that is no time zone, and a language the site does not have, with one line naming the variable', () => {
    expect(resolveConfig({ SALES_TIMEZONE: 'Europe/Atlantis' }, '/srv')).toEqual({
      ok: false,
      errors: ['SALES_TIMEZONE must be an IANA time zone name such as Europe/Madrid, America/New_York or UTC (got "Europe/Atlantis")'],
    });
    expect(resolveConfig({ SALES_LANG: 'sv' }, '/srv')).toEqual({
      ok: false,
      errors: ['SALES_LANG must be one of the site\'s languages: en, es, pt, fr, de, it, nl (got "sv")'],
    });
  });
});

describe('the sales email through a real SMTP server', () => {
  it('arrives in the language of SALES_LANG for each reason, with the subject, facts and links intact', async () => {
    const smtp = await smtpPeer();
    const temp = tempDir();
    cleanups.push(temp.remove, smtp.close);
    const env = { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com', SALES_LANG: 'de', SALES_TIMEZONE: 'Europe/Berlin', SITE_URL: 'https://www.example.com', RATE_LIMIT_MAX: '100' };
    const running = await startService(configFor(temp.dir, env), { pollMs: 20, logStream: { write: () => {} } });
    cleanups.push(running.close);
    const reasons = [['demo', 'Demo-Anfrage'], ['sales', 'Vertriebsanfrage'], ['general', 'Frage']] as const;
    for (const [intent] of reasons) {
      const res = await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app), intent, firstName: intent, sourcePage: '/de/about', country: 'fr' }));
      expect(res.statusCode).toBe(201);
    }
    await eventually(() => smtp.messages.length === 3);
    const byName = new Map(smtp.messages.map((raw) => [/^Reply-To: .*?(\w+) Pérez/m.exec(headerOf(raw, 'Reply-To') === undefined ? '' : `Reply-To: ${headerOf(raw, 'Reply-To')}`)?.[1], raw]));
    for (const [intent, reason] of reasons) {
      const raw = byName.get(intent)!;
      expect(headerOf(raw, 'Subject')).toBe(`${reason} von ${intent} Pérez (Acme Datos)`);
      const text = partOf(raw, 'text/plain');
      const html = partOf(raw, 'text/html');
      expect(text).toContain('Unternehmen: Acme Datos');
      expect(text).toContain('Land: Frankreich (fr)');
      expect(text).toContain('Telefon: +34 600 000 000 <tel:+34600000000>');
      expect(text).toContain('Seite: https://www.example.com/de/about');
      expect(text).toMatch(/^Eingegangen: .+ \(Europe\/Berlin\)$/m);
      expect(text).toContain(`${intent} Pérez antworten: mailto:ana@example.com`);
      expect(text).toContain('Nachricht:\nHola,\nquiero una demo.');
      expect(html).toContain('<html lang="de"');
      expect(html).toContain('href="tel:+34600000000"');
      expect(html).toContain('href="https://www.example.com/de/about"');
    }
  });
});

describe('intent and source page in the store', () => {
  it('stores what the form sent and renders it into the sales email', async () => {
    const temp = tempDir();
    const db = await migratedDb(temp.dir);
    cleanups.push(temp.remove, () => db.close());
    const store = await openSubmissionStore(db, {});
    const submit = async (fields: Record<string, unknown>, nonce: string) => {
      const result = validate(contactSchema, contact({ captcha: { token: 't', answer: 0 }, ...fields }));
      if (!result.ok) throw new Error(JSON.stringify(result));
      await store.submitContact(result.data, { value: `nonce-${nonce}-000000001`, expiresAt: Date.now() + 60_000 }, Date.now());
    };
    await submit({ intent: 'sales', sourcePage: '/es/about', email: 'one@example.com' }, 'a');
    await submit({ email: 'two@example.com' }, 'b');
    await store.close();
    const rows = db.raw.prepare('SELECT * FROM contacts ORDER BY id').all() as Selectable<ContactsTable>[];
    expect(rows.map((r) => [r.email, r.intent, r.source_page])).toEqual([
      ['one@example.com', 'sales', '/es/about'],
      ['two@example.com', 'general', null],
    ]);
    expect(contactEmail(rows[0]!, envelope).subject).toBe('Sales question from Ana Pérez (Acme Datos)');
  });

  it('regression: contacts stored before the intent column read as general questions from an unknown page', async () => {
    const temp = tempDir();
    const db = openSqlite(`${temp.dir}/old.sqlite`);
    cleanups.push(temp.remove, () => db.close());
    const first = Object.keys(MIGRATIONS)[0]!;
    const old = new Migrator({ db: db.kysely, provider: { getMigrations: async () => ({ [first]: MIGRATIONS[first]! }) } });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    db.raw
      .prepare("INSERT INTO contacts (first_name, last_name, email, email_lower, country, message, lang, created_at) VALUES ('A', 'B', 'a@example.com', 'a@example.com', 'es', 'm', 'es', '2025-01-01T00:00:00.000Z')")
      .run();
    expect((await migrateToLatest(db.kysely)).error).toBeUndefined();
    expect(db.raw.prepare('SELECT intent, source_page FROM contacts').get()).toEqual({ intent: 'general', source_page: null });
  });
});
