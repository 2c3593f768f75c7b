/**
 * The mail to an address already subscribed that someone signed up again. The signup form answers
 * every address alike (so nobody learns from it whether an address is subscribed); the address's
 * owner learns it from this short notice instead: nothing changed, nothing to do, and how to
 * leave. In the subscription's language, with texts from the site's content
 * (`mail.alreadySubscribed`), and nothing the visitor typed besides the address, the same as the
 * confirmation mail. It carries a visible unsubscribe link and `List-Unsubscribe` with one-click
 * POST (RFC 8058). It counts against the per-recipient cap like every mail to the address.
 */
import type { Selectable } from 'kysely';
import { pageUrl } from '../../consent/links.ts';
import type { NewsletterTable } from '../../store/tables.ts';
import type { ConfirmationMailDeps } from './confirmation-email.ts';
import { mailHtml, mailText } from './mail-layout.ts';
import type { OutgoingMail } from '../mailer.ts';
import { outboxMessageId, type OutboxRef } from './message-id.ts';
import { filledTexts, mailLang, newsletterListHeaders, visitorMailLayout } from './visitor-mail-texts.ts';

/** What the mail needs besides the subscription: the confirmation mail's parts, less the link's lifetime. */
export type AlreadySubscribedMailDeps = Omit<ConfirmationMailDeps, 'linkDays'>;

/** Renders the "already subscribed" mail for `subscription`, queued as outbox row `outbox` at `queuedAt`. */
export function alreadySubscribedEmail(
  subscription: Selectable<NewsletterTable>,
  outbox: OutboxRef & { queuedAt: number },
  deps: AlreadySubscribedMailDeps,
): OutgoingMail {
  const lang = mailLang(subscription.lang);
  const t = filledTexts(lang, deps.content.texts[lang].mail.alreadySubscribed, { brand: deps.content.brand });
  const unsubscribeToken = deps.links.sign('unsubscribe', subscription, null);
  const unsubscribeUrl = pageUrl(deps.urls, 'newsletterUnsubscribe', lang, unsubscribeToken);
  const blocks = [t.intro, t.nothingToDo, t.leave, t.signature].map((text) => ({ kind: 'paragraph' as const, text }));
  const layout = visitorMailLayout(lang, deps.content, deps.urls.siteUrl, t, blocks, [{ text: t.unsubscribe, href: unsubscribeUrl }]);
  return {
    from: deps.from,
    to: subscription.email,
    subject: t.subject,
    text: mailText(layout),
    html: mailHtml(layout),
    messageId: outboxMessageId(`newsletter-${subscription.id}`, outbox, deps.from),
    date: new Date(outbox.queuedAt),
    headers: newsletterListHeaders(deps.urls, unsubscribeToken, deps.content.brand, deps.from),
  };
}
