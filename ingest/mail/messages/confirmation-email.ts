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
import { type ConsentLinks, oneClickUrl, pageUrl, type PublicUrls, requestBinding } from '../../consent/links.ts';
import type { SiteContent } from '../../site-content.ts';
import type { NewsletterTable } from '../../store/tables.ts';
import { type MailLayout, mailHtml, mailText } from './mail-layout.ts';
import type { OutgoingMail } from '../mailer.ts';
import { newsletterListId, outboxMessageId, type OutboxRef } from './message-id.ts';
import { companyLine, filledTexts, mailLang } from './visitor-mail-texts.ts';

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
  const footer = companyLine(deps.content);

  const layout: MailLayout = {
    lang,
    brand: { name: deps.content.brand, siteUrl: deps.urls.siteUrl },
    title: t.subject,
    preheader: t.preheader,
    heading: t.heading,
    blocks: [
      { kind: 'paragraph', text: t.intro },
      { kind: 'action', label: t.button, href: confirmUrl, hint: t.linkHint },
      ...[t.expiry, t.ignore, t.signature].map((text) => ({ kind: 'paragraph' as const, text })),
    ],
    footer: [{ text: t.unsubscribe, href: unsubscribeUrl }, footer],
  };
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
    headers: {
      'List-Unsubscribe': `<${oneClickUrl(deps.urls, unsubscribeToken)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': newsletterListId(deps.content.brand, deps.from),
    },
  };
}
