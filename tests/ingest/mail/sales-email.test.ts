/**
 * What a salesperson reads: why the visitor wrote (subject and body), which page they came from,
 * when in the sales team's time zone, the country by name, and links to write or call back.
 */
import type { Selectable } from 'kysely';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../ingest/config.ts';
import { validate, contactSchema } from '../../../ingest/contract/schemas.ts';
import { contactEmail, localTime, telUri } from '../../../ingest/mail/messages/contact-email.ts';
import { MIGRATIONS, migrateToLatest } from '../../../ingest/store/migrations.ts';
import { openSqlite } from '../../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { ContactsTable } from '../../../ingest/store/tables.ts';
import { contact, migratedDb, tempDir } from '../fixtures.ts';

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
    ...overrides,
  };
}

const envelope = { from: 'forms@example.com', to: 'sales@example.com', outbox: { id: 3, messageKey: '0123456789abcdef0123456789abcdef' } };

describe('the sales email', () => {
  it('names the intent in the subject: demo request, sales question, or the contact form for a general question', () => {
    expect(contactEmail(row(), envelope).subject).toBe('Demo request from Ana Pérez (Acme Datos)');
    expect(contactEmail(row({ intent: 'sales', company_name: null }), envelope).subject).toBe('Sales question from Ana Pérez');
    expect(contactEmail(row({ intent: 'general' }), envelope).subject).toBe('Contact form: Ana Pérez (Acme Datos)');
  });

  it('shows intent, source page, the local time in SALES_TIMEZONE and the UTC time in both parts', () => {
    const madrid = contactEmail(row(), envelope);
    for (const part of [madrid.text, madrid.html]) {
      expect(part).toContain('Demo request');
      expect(part).toContain('/de/about');
      expect(part).toContain('Mon, 23 Nov 2026, 05:56 CET (Europe/Madrid)');
      expect(part).toContain('2026-11-23T04:56:48.933Z');
    }
    const newYork = contactEmail(row(), { ...envelope, timeZone: 'America/New_York' });
    expect(newYork.text).toContain('Received: Sun, 22 Nov 2026, 23:56 GMT-5 (America/New_York)');
    expect(contactEmail(row({ source_page: null }), envelope).text).toContain('Source page: unknown');
  });

  it('names the country in English, the sales team language, whatever language the visitor wrote in', () => {
    const email = contactEmail(row({ country: 'de', lang: 'de' }), envelope);
    expect(email.text).toContain('Country: Germany (de)');
    expect(email.text).toContain('Language: German (de)');
  });

  it('links the address with mailto: and the phone with tel: (digits and a leading + only) in the HTML part', () => {
    const { html, text } = contactEmail(row(), envelope);
    expect(html).toContain('<a href="mailto:ana@example.com">ana@example.com</a>');
    expect(html).toContain('<a href="tel:+34600000000">+34 (600) 00-00-00</a>');
    expect(text).toContain('Phone: +34 (600) 00-00-00');
    expect(contactEmail(row({ phone: null }), envelope).html).not.toContain('tel:');
    expect(telUri('0049 30 1234-567')).toBe('tel:0049301234567');
    expect(telUri(' +1 555 0100 ext. 2')).toBe('tel:+155501002');
    expect(telUri('call me')).toBeNull();
  });

  it('escapes what a row from elsewhere could hold in the intent, source page and links', () => {
    const { html, subject } = contactEmail(
      row({ intent: '<b>x</b>', source_page: '/"><script>', email: 'a"b@example.com', phone: '+1 "><img>' }),
      envelope,
    );
    expect(html).not.toMatch(/<script|<img|<b>x/);
    expect(html).toContain('href="mailto:a%22b@example.com"');
    expect(subject).toBe('Contact form: Ana Pérez (Acme Datos)');
  });

  it('shows an unknown date as it is stored rather than an invalid time', () => {
    expect(localTime('not a date', 'Europe/Madrid')).toBe('not a date');
  });
});

describe('SALES_TIMEZONE', () => {
  it('defaults to Europe/Madrid and accepts any IANA zone', () => {
    expect(resolveConfig({}, '/srv')).toMatchObject({ ok: true, config: { salesTimeZone: 'Europe/Madrid' } });
    expect(resolveConfig({ SALES_TIMEZONE: 'America/New_York' }, '/srv')).toMatchObject({ ok: true, config: { salesTimeZone: 'America/New_York' } });
  });

  it('refuses a name that is no time zone with one line naming the variable', () => {
    const result = resolveConfig({ SALES_TIMEZONE: 'Europe/Atlantis' }, '/srv');
    expect(result).toEqual({
      ok: false,
      errors: ['SALES_TIMEZONE must be an IANA time zone name such as Europe/Madrid, America/New_York or UTC (got "Europe/Atlantis")'],
    });
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
