/**
 * The consent parts, put together once from the configuration and the site content: the signed
 * links, the newsletter's lifecycle and the contacts' verification on the consent database, the
 * terms a signup is stored under, the consent wordings (recorded at start), and the mails to a
 * visitor's address (newsletter confirmation, contact confirmation, "already subscribed").
 */
import type { Selectable } from 'kysely';
import type { NewsletterSignup } from './contract/schemas.ts';
import { alreadySubscribedEmail } from './mail/messages/already-subscribed-email.ts';
import { confirmationEmail } from './mail/messages/confirmation-email.ts';
import { contactConfirmationEmail } from './mail/messages/contact-confirmation-email.ts';
import { type ContactVerification, contactVerification } from './consent/contact-verification.ts';
import type { OutgoingMail } from './mail/mailer.ts';
import type { OutboxRef } from './mail/messages/message-id.ts';
import type { SiteContent } from './site-content.ts';
import type { OpsDatabase } from './store/ops-database.ts';
import type { SignupTerms } from './store/submission-store.ts';
import type { WebhookRouting } from './store/webhooks/webhook-row.ts';
import type { ContactsTable, NewsletterTable } from './store/tables.ts';
import { type ConsentWording, consentWordings } from './consent/consent-wording.ts';
import { type ConsentLinks, consentLinks, type PublicUrls } from './consent/links.ts';
import { type SubscriptionLifecycle, subscriptionLifecycle } from './consent/subscriptions.ts';

/** What the newsletter's consent handling is built from. */
export interface ConsentSetupOptions {
  content: SiteContent;
  /** The service secret the link key is derived from. */
  secret: string;
  consentDb: OpsDatabase;
  optIn: 'double' | 'single';
  linkDays: number;
  /** Null: the content's `legal.privacyVersion`. */
  privacyVersion: string | null;
  /** Null: the content's `siteUrl`. */
  siteUrl: string | null;
  /** Null: `<site URL>/api`. */
  apiUrl: string | null;
  /** The mails' sender address. */
  from: string;
  /** Which webhook endpoints hear of confirmations, unsubscriptions and verified contacts (default: none). */
  webhooks?: WebhookRouting;
}

/** The assembled parts. */
export interface ConsentSetup {
  content: SiteContent;
  links: ConsentLinks;
  urls: PublicUrls;
  lifecycle: SubscriptionLifecycle;
  verification: ContactVerification;
  /** How long a confirmation link works, in days. */
  linkDays: number;
  wordings: readonly ConsentWording[];
  termsFor(signup: NewsletterSignup, now: number): SignupTerms;
  confirmationMail(subscription: Selectable<NewsletterTable>, outbox: OutboxRef): OutgoingMail;
  contactConfirmationMail(contact: Selectable<ContactsTable>, outbox: OutboxRef): OutgoingMail;
  alreadySubscribedMail(subscription: Selectable<NewsletterTable>, outbox: OutboxRef & { queuedAt: number }): OutgoingMail;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Builds the parts; nothing is written until `lifecycle.recordWordings(setup.wordings, now)`. */
export function consentSetup(options: ConsentSetupOptions): ConsentSetup {
  const privacyVersion = options.privacyVersion ?? options.content.privacyVersion;
  const siteUrl = options.siteUrl ?? options.content.siteUrl;
  const urls: PublicUrls = { siteUrl, apiUrl: options.apiUrl ?? `${siteUrl}/api` };
  const links = consentLinks(options.secret);
  const byLang = consentWordings(options.content, privacyVersion);
  return {
    content: options.content,
    links,
    urls,
    lifecycle: subscriptionLifecycle(options.consentDb, links, options.linkDays, options.webhooks),
    verification: contactVerification(options.consentDb, links, options.webhooks),
    linkDays: options.linkDays,
    wordings: Object.values(byLang),
    termsFor(signup, now) {
      const consentHash = byLang[signup.lang].hash;
      return options.optIn === 'single'
        ? { status: 'confirmed', consentHash, privacyVersion }
        : { status: 'pending', consentHash, privacyVersion, expiresAt: now + options.linkDays * DAY_MS };
    },
    confirmationMail: (subscription, outbox) =>
      confirmationEmail(subscription, outbox, { content: options.content, links, urls, linkDays: options.linkDays, from: options.from }),
    contactConfirmationMail: (contact, outbox) =>
      contactConfirmationEmail(contact, outbox, { content: options.content, links, urls, linkDays: options.linkDays, from: options.from }),
    alreadySubscribedMail: (subscription, outbox) => alreadySubscribedEmail(subscription, outbox, { content: options.content, links, urls, from: options.from }),
  };
}
