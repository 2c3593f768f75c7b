/**
 * `ingest erase --email` and `ingest export --email` act on one validated address, and on the
 * mail files whose visitor that address is: real mails written by the real composers into the
 * real file mail sink, and the real `ingest` process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Selectable } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { consentLinks } from '../../../ingest/consent/links.ts';
import { alreadySubscribedEmail } from '../../../ingest/mail/messages/already-subscribed-email.ts';
import { confirmationEmail } from '../../../ingest/mail/messages/confirmation-email.ts';
import { contactConfirmationEmail } from '../../../ingest/mail/messages/contact-confirmation-email.ts';
import { contactEmail } from '../../../ingest/mail/messages/contact-email.ts';
import { createMailer, type OutgoingMail } from '../../../ingest/mail/mailer.ts';
import { mailFilesAbout, visitorAddresses } from '../../../ingest/ops/erase-mail-files.ts';
import { personAddress as address } from '../../../ingest/ops/person-address.ts';
import { newMessageKey } from '../../../ingest/store/outbox/outbox-row.ts';
import type { ContactsTable, NewsletterTable } from '../../../ingest/store/tables.ts';
import { SECRET, SITE_CONTENT, tempDir } from '../fixtures.ts';
import { runIngest } from '../../helpers/ingest-cli.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

const MAIL_FROM = 'forms@example.com';
const SALES_EMAIL = 'sales@example.com';
const deps = { content: SITE_CONTENT, links: consentLinks(SECRET), urls: { siteUrl: 'https://www.example.com', apiUrl: 'https://www.example.com/api' }, linkDays: 7, from: MAIL_FROM };
let outboxId = 0;
const outbox = () => ({ id: ++outboxId, messageKey: newMessageKey() });

function contactRow(id: number, email: string, overrides: Partial<Selectable<ContactsTable>> = {}): Selectable<ContactsTable> {
  return {
    id, first_name: 'Visitor', last_name: String(id), email, email_lower: email.toLowerCase(), phone: null, company_name: null, country: 'es',
    message: 'Hello', lang: 'en', created_at: '2026-11-23T09:00:00.000Z', intent: 'general', source_page: null,
    verified_at: '2026-11-23T09:00:00.000Z', expires_at: '2026-11-30T09:00:00.000Z', webhook_waiting: 0, ...overrides,
  };
}

function subscriptionRow(id: number, email: string): Selectable<NewsletterTable> {
  return {
    id, name: 'Visitor', email, email_lower: email.toLowerCase(), privacy_consent: 1, marketing_consent: 0, lang: 'en', privacy_version: '2026-11-23',
    consent_at: '2026-11-23T09:00:00.000Z', created_at: '2026-11-23T09:00:00.000Z', status: 'pending', confirmed_at: null, consent_hash: null,
    expires_at: '2026-11-30T09:00:00.000Z', confirm_mails: 1, confirm_mail_day: '2026-11-23', last_confirm_mail_at: '2026-11-23T09:00:00.000Z',
  };
}

/** Every kind of mail the service writes (one composer per outbox kind), each about its own visitor, as `.eml` files in a fresh `DATA_DIR/mail`. */
async function mailFolder(): Promise<{ dataDir: string; mailDir: string; files(): string[]; visitors(): string[][] }> {
  const temp = tempDir();
  cleanups.push(temp.remove);
  const mailDir = join(temp.dir, 'mail');
  const mailer = createMailer({ kind: 'file', dir: mailDir });
  const envelope = { from: MAIL_FROM, to: SALES_EMAIL, content: SITE_CONTENT };
  const mails: OutgoingMail[] = [
    // Ana: a sales mail (Reply-To Ana), her newsletter confirmation and "already subscribed" mail (To Ana), her contact confirmation (To Ana, another case).
    contactEmail(contactRow(1, 'Ana@Example.com'), { ...envelope, outbox: outbox() }),
    confirmationEmail(subscriptionRow(1, 'ana@example.com'), outbox(), deps),
    alreadySubscribedEmail(subscriptionRow(1, 'ana@example.com'), { ...outbox(), queuedAt: Date.parse('2026-11-24T09:00:00.000Z') }, deps),
    contactConfirmationEmail(contactRow(2, 'ANA@example.com'), outbox(), deps),
    // Bo, who names Ana in his message and in his name: his mail is not Ana's.
    contactEmail(contactRow(3, 'bo@example.com', { first_name: 'ana@example.com', message: 'Please also write to ana@example.com' }), { ...envelope, outbox: outbox() }),
    // Addresses around Ana's that are not hers.
    confirmationEmail(subscriptionRow(2, 'banana@example.com'), outbox(), deps),
    contactConfirmationEmail(contactRow(4, 'ana@example.com.evil'), outbox(), deps),
    contactEmail(contactRow(5, 'x.ana@example.com'), { ...envelope, outbox: outbox() }),
  ];
  for (const mail of mails) await mailer.send(mail);
  const files = () => readdirSync(mailDir).sort();
  return { dataDir: temp.dir, mailDir, files, visitors: () => files().map((name) => visitorAddresses(readFileSync(join(mailDir, name), 'latin1'))) };
}

/** Runs `ingest ARGS` with the mail settings the service needs; never rejects. */
function ingest(args: string[], env: Record<string, string>) {
  return runIngest(args, { MAIL_FROM, SALES_EMAIL, ...env });
}

describe('the --email of ingest erase and ingest export', () => {
  it('regression: `ingest erase --email ""` deleted every mail file; an empty, blank, partial or local-only value is refused with exit 2', async () => {
    const folder = await mailFolder();
    const before = folder.files();
    // As the review typed them: empty, blank, localhost, the default MAIL_FROM, a bare domain, a dot; and a list.
    const refused = ['', ' ', 'localhost', 'ingest@localhost', 'example.com', '.', '@example.com', 'ana@example.com, bo@example.com'];
    const runs = await Promise.all(refused.map((value) => ingest(['erase', '--email', value], { DATA_DIR: folder.dataDir })));
    for (const [index, run] of runs.entries()) {
      expect(run.code, refused[index]).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(`ingest: --email ${JSON.stringify(refused[index])} is not one email address such as ana@example.com; give the exact address of one person`);
    }
    expect(folder.files()).toEqual(before);
    const exported = await ingest(['export', '--email', ''], { DATA_DIR: folder.dataDir });
    expect(exported.code).toBe(2);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toContain('--email "" is not one email address');
  }, 60_000);

  it('erases the mail files whose visitor is the address, in any case, and no other', async () => {
    const folder = await mailFolder();
    expect(folder.visitors()).toHaveLength(8);
    const ana = folder.files().filter((_, index) => folder.visitors()[index]!.includes('ana@example.com'));
    expect(ana).toHaveLength(4);
    const exported = await ingest(['export', '--email', 'ANA@example.COM'], { DATA_DIR: folder.dataDir });
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout).mailFiles).toEqual(ana);
    const erased = await ingest(['erase', '--email', 'ANA@example.COM'], { DATA_DIR: folder.dataDir });
    expect(erased.code).toBe(0);
    expect(erased.stdout).toBe('erased ANA@example.com: newsletter 0, contacts 0, outbox 0, webhook records 0\n');
    expect(erased.stderr).toBe(`removed 4 mail file(s) about the address\n${ana.map((name) => `  ${name}\n`).join('')}`);
    expect(folder.visitors().flat().sort()).toEqual(['ana@example.com.evil', 'banana@example.com', 'bo@example.com', 'x.ana@example.com']);
  }, 30_000);

  it("erasing the sales address or MAIL_FROM removes no visitor's mail (they are never a mail's visitor)", async () => {
    const folder = await mailFolder();
    const before = folder.files();
    for (const value of [SALES_EMAIL, MAIL_FROM, 'SALES@example.com']) {
      expect(mailFilesAbout(folder.mailDir, address(value))).toEqual([]);
    }
    const erased = await ingest(['erase', '--email', SALES_EMAIL], { DATA_DIR: folder.dataDir });
    expect(erased.code).toBe(0);
    expect(erased.stderr).toBe('removed 0 mail file(s) about the address\n');
    expect(folder.files()).toEqual(before);
  }, 30_000);

  it('reads the visitor from the headers the service writes: Reply-To of a sales mail, else To and Cc, folded or quoted', () => {
    expect(visitorAddresses('From: forms@x.com\nTo: sales@x.com\nReply-To: "Ana" <Ana@Example.com>\nSubject: s\n\nEmail: bo@x.com\n')).toEqual(['ana@example.com']);
    expect(visitorAddresses('From: forms@x.com\nTo: Ana@Example.com\nCc: "Bo, <sales@x.com>"\n <bo@x.com>\n\nReply-To: body@x.com\n')).toEqual(['ana@example.com', 'bo@x.com']);
    expect(visitorAddresses('From: forms@x.com\r\nTo: =?UTF-8?Q?Ana?= <ana@example.com>\r\n\r\n')).toEqual(['ana@example.com']);
    expect(visitorAddresses('From: ana@example.com\nSubject: no recipient\n\n')).toEqual([]);
  });
});
