/**
 * The confirmation mail of a contact message sent without JavaScript (a plain HTML form post has
 * no captcha): it asks the sender to confirm the address before the message goes to sales. In the
 * message's language, with texts from the site's content (`mail.contactConfirm`), to the address
 * only, and with nothing else the sender typed — not the name, not the message — so the form
 * cannot be used to send someone else a text of the sender's choosing.
 */
import type { Selectable } from 'kysely';
import { pageUrl } from '../../consent/links.ts';
import type { ContactsTable } from '../../store/tables.ts';
import type { ConfirmationMailDeps } from './confirmation-email.ts';
import { mailHtml, mailText } from './mail-layout.ts';
import type { OutgoingMail } from '../mailer.ts';
import { outboxMessageId, type OutboxRef } from './message-id.ts';
import { confirmationBlocks, filledTexts, mailLang, visitorMailLayout } from './visitor-mail-texts.ts';

/** What the mail needs besides the contact: the same as the newsletter's confirmation mail. */
export type ContactConfirmationMailDeps = ConfirmationMailDeps;

/** Renders the confirmation mail for `contact`, queued as outbox row `outbox`. */
export function contactConfirmationEmail(contact: Selectable<ContactsTable>, outbox: OutboxRef, deps: ContactConfirmationMailDeps): OutgoingMail {
  const lang = mailLang(contact.lang);
  const t = filledTexts(lang, deps.content.texts[lang].mail.contactConfirm, { brand: deps.content.brand, days: String(deps.linkDays) });
  const expiresAt = contact.expires_at === null ? null : Date.parse(contact.expires_at);
  const confirmUrl = pageUrl(deps.urls, 'contactConfirm', lang, deps.links.sign('contact', contact, expiresAt));
  const layout = visitorMailLayout(lang, deps.content, deps.urls.siteUrl, t, confirmationBlocks(t, confirmUrl));
  const text = mailText(layout);
  const html = mailHtml(layout);
  return {
    from: deps.from,
    to: contact.email,
    subject: t.subject,
    text,
    html,
    messageId: outboxMessageId(`contact-confirm-${contact.id}`, outbox, deps.from),
    date: new Date(contact.created_at),
  };
}
