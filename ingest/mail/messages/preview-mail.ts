/**
 * Sample emails as files a person can open, for `ingest preview-mail --out DIR`: each sample is
 * written as `NAME.eml` (the whole message exactly as the service would send it; mail clients open
 * it) and `NAME.html` (its HTML part, for a browser).
 *
 * The samples are the sales email for each intent, rendered by the real `contactEmail` from
 * made-up contact rows, with the operator's `MAIL_FROM`, `SALES_EMAIL` and `SALES_TIMEZONE`. The
 * mails to visitors (confirmations, "already subscribed") have no samples here yet; their tests
 * render them (tests/ingest/mail/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Selectable } from 'kysely';
import nodemailer from 'nodemailer';
import { newMessageKey } from '../../store/outbox/outbox-row.ts';
import type { ContactsTable } from '../../store/tables.ts';
import { type ContactEmail, contactEmail, type SalesEnvelope } from './contact-email.ts';

const SAMPLE_CONTACT: Selectable<ContactsTable> = {
  id: 1,
  first_name: 'Lucía',
  last_name: 'Fernández Ortega',
  email: 'lucia.fernandez@example.com',
  email_lower: 'lucia.fernandez@example.com',
  phone: '+34 600 12 34 56',
  company_name: 'Clínica Ejemplo S.L.',
  country: 'es',
  message: 'Hola,\nwe run MariaDB 10.11 and Percona Server 8 and need masked copies of patient data for our test team.\nCould you show us the proxy mode?',
  lang: 'es',
  created_at: '2026-11-23T08:41:07.512Z',
  intent: 'demo',
  source_page: '/es',
  verified_at: '2026-11-23T08:41:07.512Z',
  expires_at: null,
};

/** One sample: the file name (without extension) and the message. */
interface MailSample {
  name: string;
  mail: ContactEmail;
}

/** The sample messages, rendered as the service would send them through `envelope`. */
function mailSamples(envelope: SalesEnvelope): MailSample[] {
  const sales = (name: string, contact: Partial<Selectable<ContactsTable>>, outboxId: number): MailSample => ({
    name,
    mail: contactEmail({ ...SAMPLE_CONTACT, ...contact }, { ...envelope, outbox: { id: outboxId, messageKey: newMessageKey() } }),
  });
  return [
    sales('sales-demo-request', {}, 1),
    sales('sales-question', {
      id: 2,
      first_name: 'Jan',
      last_name: 'de Vries',
      email: 'j.devries@example.nl',
      email_lower: 'j.devries@example.nl',
      phone: '020 123 4567',
      company_name: 'Voorbeeld Bank N.V.',
      country: 'nl',
      lang: 'nl',
      message: 'What does a licence for three production databases cost, and is Aurora RDS included?',
      intent: 'sales',
      source_page: '/nl/about',
    }, 2),
    sales('sales-general-question', {
      id: 3,
      first_name: 'Amélie',
      last_name: 'Laurent',
      email: 'amelie.laurent@example.fr',
      email_lower: 'amelie.laurent@example.fr',
      phone: null,
      company_name: null,
      country: 'fr',
      lang: 'fr',
      message: 'Bonjour,\nest-ce que le mode proxy fonctionne avec MySQL 5.7 ?',
      intent: 'general',
      source_page: null,
    }, 3),
  ];
}

/** Writes every sample into `dir` (created if missing) as `.eml` and `.html`; returns the file paths written. */
export async function writeMailPreviews(dir: string, envelope: SalesEnvelope): Promise<string[]> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  try {
    for (const { name, mail } of mailSamples(envelope)) {
      const info = await transport.sendMail(mail);
      const eml = join(dir, `${name}.eml`);
      const html = join(dir, `${name}.html`);
      writeFileSync(eml, info.message as Buffer);
      writeFileSync(html, mail.html);
      written.push(eml, html);
    }
  } finally {
    transport.close();
  }
  return written;
}
