/**
 * The confirmation mail of a newsletter signup (double opt-in), in the signup's language, with
 * texts from the site's content (`mail.confirm`). It goes to the address that signed up and holds
 * nothing the visitor typed besides that address — not the name — so the form cannot be used to
 * send someone else a message of the sender's choosing.
 *
 * It carries a confirmation link (to the site's page, whose button confirms; valid until the
 * subscription's `expires_at`), a visible unsubscribe link, and `List-Unsubscribe` with
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), so mail programs can offer
 * their own unsubscribe button.
 */
import type { Selectable } from 'kysely';
import { type ConsentLinks, pageUrl, type PublicUrls, requestBinding } from '../../consent/links.ts';
import type { SiteContent } from '../../site-content.ts';
import type { NewsletterTable } from '../../store/tables.ts';
import { mailHtml, mailText } from './mail-layout.ts';
import type { OutgoingMail } from '../mailer.ts';
import { outboxMessageId, type OutboxRef } from './message-id.ts';
import { confirmationBlocks, filledTexts, mailLang, newsletterListHeaders, visitorMailLayout } from './visitor-mail-texts.ts';

/** What the confirmation mail needs besides the subscription. */
export interface ConfirmationMailDeps {
  content: SiteContent;
  links: ConsentLinks;
  urls: PublicUrls;
  /** How long a confirmation link works, in days (for the text). */
  linkDays: number;
  from: string;
}

/** Renders the confirmation mail for `subscription`, queued as outbox row `outbox`. */
export function confirmationEmail(subscription: Selectable<NewsletterTable>, outbox: OutboxRef, deps: ConfirmationMailDeps): OutgoingMail {
  const lang = mailLang(subscription.lang);
  const t = filledTexts(lang, deps.content.texts[lang].mail.confirm, { brand: deps.content.brand, days: String(deps.linkDays) });
  const expiresAt = subscription.expires_at === null ? null : Date.parse(subscription.expires_at);
  const confirmUrl = pageUrl(deps.urls, 'newsletterConfirm', lang, deps.links.sign('confirm', requestBinding(subscription), expiresAt));
  const unsubscribeToken = deps.links.sign('unsubscribe', subscription, null);
  const unsubscribeUrl = pageUrl(deps.urls, 'newsletterUnsubscribe', lang, unsubscribeToken);
  const layout = visitorMailLayout(lang, deps.content, deps.urls.siteUrl, t, confirmationBlocks(t, confirmUrl), [{ text: t.unsubscribe, href: unsubscribeUrl }]);
  const text = mailText(layout);
  const html = mailHtml(layout);
  return {
    from: deps.from,
    to: subscription.email,
    subject: t.subject,
    text,
    html,
    messageId: outboxMessageId(`newsletter-${subscription.id}`, outbox, deps.from),
    date: new Date(subscription.last_confirm_mail_at ?? subscription.created_at),
    headers: newsletterListHeaders(deps.urls, unsubscribeToken, deps.content.brand, deps.from),
  };
}
