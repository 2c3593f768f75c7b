/**
 * How each kind of outbox row becomes a mail, and what the logs call it: one table the worker
 * looks up by the row's kind, so a new kind of mail adds a row here, not a branch in the worker.
 *
 * The sales mail is composed here from the envelope (`SALES_EMAIL`, `MAIL_FROM`, time zone,
 * language and the site's texts); the mails to visitors need the signed links too, so their
 * composers are made by the consent setup and passed in.
 */
import type { Selectable } from 'kysely';
import { contactEmail, type SalesEnvelope } from './messages/contact-email.ts';
import type { OutgoingMail } from './mailer.ts';
import type { OutboxRef } from './messages/message-id.ts';
import type { OutboxJob } from '../store/outbox/outbox-store.ts';
import type { ContactsTable, NewsletterTable, OutboxKind } from '../store/tables.ts';

/** The composers of the mails to visitors, made where the site's texts are (`consent-setup.ts`). */
export interface VisitorMailComposers {
  /** A subscription's confirmation mail. */
  confirmationMail?: (subscription: Selectable<NewsletterTable>, outbox: OutboxRef) => OutgoingMail;
  /** The confirmation mail of a contact sent without JavaScript, to its sender. */
  contactConfirmationMail?: (contact: Selectable<ContactsTable>, outbox: OutboxRef) => OutgoingMail;
  /** The "already subscribed" mail to a subscriber signed up again (queued at `outbox.queuedAt`). */
  alreadySubscribedMail?: (subscription: Selectable<NewsletterTable>, outbox: OutboxRef & { queuedAt: number }) => OutgoingMail;
}

/** Each kind's composer; a kind without one cannot be sent by this worker (its rows fail). */
type ComposerTable = { [K in OutboxKind]: ((job: OutboxJob & { kind: K }) => OutgoingMail) | undefined };

/** What the logs call each kind of mail: `sales mail sent`, `newsletter confirmation mail failed, will retry`. */
export const MAIL_NAMES: Readonly<Record<OutboxKind, string>> = {
  sales: 'sales mail',
  contact_confirm: 'contact confirmation mail',
  newsletter_confirm: 'newsletter confirmation mail',
  newsletter_already_subscribed: '"already subscribed" mail',
};

/** The composer table for a worker: the sales mail from `envelope`, the visitors' mails from `visitor`. */
export function mailComposers(envelope: SalesEnvelope, visitor: VisitorMailComposers): ComposerTable {
  const { confirmationMail, contactConfirmationMail, alreadySubscribedMail } = visitor;
  return {
    sales: (job) => contactEmail(job.contact, { ...envelope, outbox: job }),
    contact_confirm: contactConfirmationMail && ((job) => contactConfirmationMail(job.contact, job)),
    newsletter_confirm: confirmationMail && ((job) => confirmationMail(job.subscription, job)),
    newsletter_already_subscribed: alreadySubscribedMail && ((job) => alreadySubscribedMail(job.subscription, job)),
  };
}

/** The mail for a claimed row, from `table`; throws (the send fails and is retried) when its kind has no composer. */
export function composeMail(table: ComposerTable, job: OutboxJob): OutgoingMail {
  const compose = table[job.kind] as ((job: OutboxJob) => OutgoingMail) | undefined;
  if (compose === undefined) throw new Error(`this worker has no composer for the ${MAIL_NAMES[job.kind]}`);
  return compose(job);
}
