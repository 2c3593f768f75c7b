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
import { type ConsentLinks, oneClickUrl, pageUrl, type PublicUrls } from '../consent/links.ts';
import { LANGS, type Lang } from '../contract/schemas.ts';
import type { SiteContent } from '../site-content.ts';
import type { NewsletterTable } from '../store/tables.ts';
import { escapeHtml } from './escape-html.ts';
import type { OutgoingMail } from './mailer.ts';

/** What the confirmation mail needs besides the subscription. */
export interface ConfirmationMailDeps {
  content: SiteContent;
  links: ConsentLinks;
  urls: PublicUrls;
  /** How long a confirmation link works, in days (for the text). */
  linkDays: number;
  from: string;
}

const fill = (template: string, values: Readonly<Record<string, string>>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);

/** Renders the confirmation mail for `subscription`, queued as outbox row `outboxId`. */
export function confirmationEmail(subscription: Selectable<NewsletterTable>, outboxId: number, deps: ConfirmationMailDeps): OutgoingMail {
  const lang: Lang = (LANGS as readonly string[]).includes(subscription.lang) ? (subscription.lang as Lang) : 'en';
  const values = { brand: deps.content.brand, days: String(deps.linkDays) };
  const t = Object.fromEntries(Object.entries(deps.content.texts[lang].mail.confirm).map(([key, text]) => [key, fill(text, values)])) as Record<
    keyof SiteContent['texts'][Lang]['mail']['confirm'],
    string
  >;
  const expiresAt = subscription.expires_at === null ? null : Date.parse(subscription.expires_at);
  const confirmUrl = pageUrl(deps.urls, 'newsletterConfirm', lang, deps.links.sign('confirm', subscription, expiresAt));
  const unsubscribeToken = deps.links.sign('unsubscribe', subscription, null);
  const unsubscribeUrl = pageUrl(deps.urls, 'newsletterUnsubscribe', lang, unsubscribeToken);
  const footer = `${deps.content.company.legalName} · ${deps.content.company.address}`;

  const text = [
    t.heading,
    '',
    t.intro,
    '',
    `${t.button}: ${confirmUrl}`,
    '',
    t.expiry,
    '',
    t.ignore,
    '',
    t.signature,
    '',
    '--',
    `${t.unsubscribe}: ${unsubscribeUrl}`,
    footer,
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5">',
    `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(t.preheader)}</div>`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    `<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(t.heading)}</h1>`,
    `<p>${escapeHtml(t.intro)}</p>`,
    `<p style="margin:28px 0"><a href="${escapeHtml(confirmUrl)}" style="background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block;font-weight:bold">${escapeHtml(t.button)}</a></p>`,
    `<p style="font-size:14px;color:#52606d">${escapeHtml(t.linkHint)}<br><a href="${escapeHtml(confirmUrl)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(confirmUrl)}</a></p>`,
    `<p>${escapeHtml(t.expiry)}</p>`,
    `<p>${escapeHtml(t.ignore)}</p>`,
    `<p>${escapeHtml(t.signature)}</p>`,
    '</div>',
    `<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#52606d;text-align:center"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#52606d">${escapeHtml(t.unsubscribe)}</a> · ${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    from: deps.from,
    to: subscription.email,
    subject: t.subject,
    text,
    html,
    messageId: `<newsletter-${subscription.id}.outbox-${outboxId}@ingest.invalid>`,
    date: new Date(subscription.last_confirm_mail_at ?? subscription.created_at),
    headers: {
      'List-Unsubscribe': `<${oneClickUrl(deps.urls, unsubscribeToken)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
