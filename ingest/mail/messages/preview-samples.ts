/**
 * The sample mails of `ingest preview-mail`: every kind of mail the service sends, in every
 * language, rendered by the real composers from made-up rows — the sales mail for each reason
 * (demo, sales, question), the newsletter's confirmation mail, the contact confirmation mail and
 * the "already subscribed" mail. The links are signed with a key made for the preview, so they
 * look like the real ones and open the real pages, but no service accepts them.
 */
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { LANGS } from '../../contract/languages.ts';
import { consentLinks } from '../../consent/links.ts';
import type { SiteContent } from '../../site-content.ts';
import { newMessageKey } from '../../store/outbox/outbox-row.ts';
import type { ContactsTable, NewsletterTable } from '../../store/tables.ts';
import type { OutgoingMail } from '../mailer.ts';
import { alreadySubscribedEmail } from './already-subscribed-email.ts';
import { confirmationEmail } from './confirmation-email.ts';
import { contactConfirmationEmail } from './contact-confirmation-email.ts';
import { contactEmail } from './contact-email.ts';

/** The operator's settings the samples are rendered with. */
export interface PreviewSettings {
  from: string;
  to: string;
  timeZone: string;
  content: SiteContent;
  /** Null: the content's `siteUrl`. */
  siteUrl: string | null;
  /** Null: `<site URL>/api`. */
  apiUrl: string | null;
  linkDays: number;
}

/** One sample: its file name without extension (`sales-demo.de`) and the message. */
export interface MailSample {
  name: string;
  mail: OutgoingMail;
}

const RECEIVED = '2026-11-23T08:41:07.512Z';

const DEMO: Selectable<ContactsTable> = {
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
  created_at: RECEIVED,
  intent: 'demo',
  source_page: '/es',
  verified_at: RECEIVED,
  expires_at: null,
  webhook_waiting: 0,
};

/** A sample contact for each reason a visitor can give, as the contact form stores it. */
const SALES_SAMPLES: ReadonlyArray<readonly [string, Selectable<ContactsTable>]> = [
  ['demo', DEMO],
  ['sales', {
    ...DEMO,
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
  }],
  ['question', {
    ...DEMO,
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
  }],
];

/** A newsletter subscription in `lang`, pending or confirmed. */
function subscription(lang: string, status: 'pending' | 'confirmed'): Selectable<NewsletterTable> {
  return {
    id: 1,
    name: 'Lena',
    email: 'lena@example.com',
    email_lower: 'lena@example.com',
    privacy_consent: 1,
    marketing_consent: 1,
    lang,
    privacy_version: '2026-11-25',
    consent_at: RECEIVED,
    created_at: RECEIVED,
    status,
    confirmed_at: status === 'confirmed' ? RECEIVED : null,
    consent_hash: null,
    expires_at: status === 'pending' ? '2026-11-30T08:41:07.512Z' : null,
    confirm_mails: 1,
    confirm_mail_day: '2026-11-23',
    last_confirm_mail_at: RECEIVED,
  };
}

/** Every sample, language by language: the sales mail for each reason, then the three mails to a visitor. */
export function mailSamples(settings: PreviewSettings): MailSample[] {
  const siteUrl = settings.siteUrl ?? settings.content.siteUrl;
  const urls = { siteUrl, apiUrl: settings.apiUrl ?? `${siteUrl}/api` };
  const visitor = { content: settings.content, links: consentLinks(randomBytes(32).toString('hex')), urls, linkDays: settings.linkDays, from: settings.from };
  let outboxId = 0;
  const outbox = () => ({ id: ++outboxId, messageKey: newMessageKey() });
  return LANGS.flatMap((lang) => [
    ...SALES_SAMPLES.map(([reason, contact]) => ({
      name: `sales-${reason}.${lang}`,
      mail: contactEmail(contact, { from: settings.from, to: settings.to, timeZone: settings.timeZone, lang, content: settings.content, siteUrl, outbox: outbox() }),
    })),
    { name: `newsletter-confirm.${lang}`, mail: confirmationEmail(subscription(lang, 'pending'), outbox(), visitor) },
    { name: `contact-confirm.${lang}`, mail: contactConfirmationEmail({ ...DEMO, lang, verified_at: null, expires_at: '2026-11-30T08:41:07.512Z' }, outbox(), visitor) },
    { name: `already-subscribed.${lang}`, mail: alreadySubscribedEmail(subscription(lang, 'confirmed'), { ...outbox(), queuedAt: Date.parse(RECEIVED) }, visitor) },
  ]);
}
