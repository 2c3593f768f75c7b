/**
 * The HTML part shared by the mails the service sends to a visitor's address: those that ask a
 * person to confirm something by a link (the newsletter signup, a contact sent without
 * JavaScript) and the notice that an address is already subscribed. A heading, an introduction,
 * one button with the link spelled out for mail programs that hide buttons (when the mail has a
 * link to act on), further paragraphs, and a footer line. Every text is escaped here;
 * `footerHtml` is the only part passed in as HTML.
 */
import { escapeHtml } from './escape-html.ts';

/** The texts and link of one confirmation mail. */
export interface ConfirmationLayout {
  lang: string;
  subject: string;
  preheader: string;
  heading: string;
  intro: string;
  /** The link to act on, its button's text and the hint above the spelled-out link; a notice has none. */
  button?: string;
  url?: string;
  linkHint?: string;
  paragraphs: readonly string[];
  /** Already escaped: links and the company line. */
  footerHtml: string;
}

/** The mail's HTML part. */
export function confirmationHtml(mail: ConfirmationLayout): string {
  const url = mail.url === undefined ? null : escapeHtml(mail.url);
  return [
    `<!doctype html><html lang="${escapeHtml(mail.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(mail.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5">',
    `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(mail.preheader)}</div>`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    `<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(mail.heading)}</h1>`,
    `<p>${escapeHtml(mail.intro)}</p>`,
    ...(url === null
      ? []
      : [
          `<p style="margin:28px 0"><a href="${url}" style="background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block;font-weight:bold">${escapeHtml(mail.button ?? '')}</a></p>`,
          `<p style="font-size:14px;color:#52606d">${escapeHtml(mail.linkHint ?? '')}<br><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></p>`,
        ]),
    ...mail.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    '</div>',
    `<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#52606d;text-align:center">${mail.footerHtml}</p>`,
    '</body></html>',
  ].join('\n');
}

/** The mail's text part: the same content, the link written out. */
export function confirmationText(mail: ConfirmationLayout, footerLines: readonly string[]): string {
  const action = mail.url === undefined ? [] : [`${mail.button ?? ''}: ${mail.url}`, ''];
  return [mail.heading, '', mail.intro, '', ...action, ...mail.paragraphs.flatMap((p) => [p, '']), '--', ...footerLines].join('\n');
}
