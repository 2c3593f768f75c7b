/**
 * What every mail takes from the site's content the same way: the language it is written in, its
 * texts typeset for that language with their `{{placeholders}}` filled, and the company line at
 * the foot of the mails to a visitor; and what the mails to a visitor share: their layout's head
 * and foot, the body of the two confirmation mails, and the newsletter mails' list headers.
 */
import { oneClickUrl, type PublicUrls } from '../../consent/links.ts';
import { LANGS, type Lang } from '../../contract/languages.ts';
import type { SiteContent } from '../../site-content.ts';
import type { MailLayout } from './mail-layout.ts';
import { newsletterListId } from './message-id.ts';
import { typeset } from './typography.ts';

/** The language of a stored row's mail: the row's, if it is one of ours, else English. */
export function mailLang(value: string): Lang {
  return (LANGS as readonly string[]).includes(value) ? (value as Lang) : 'en';
}

/**
 * The texts of one mail typeset for `lang`, then with their placeholders filled (the values, which
 * may be what a visitor typed, are not typeset); an unknown placeholder stays as written.
 *
 * @example filledTexts('en', { subject: 'Welcome to {{brand}}' }, { brand: 'MaskWise' }) // → { subject: 'Welcome to MaskWise' }
 */
export function filledTexts<K extends string>(lang: Lang, texts: Readonly<Record<K, string>>, values: Readonly<Record<string, string>>): Record<K, string> {
  const fill = (text: string) => typeset(lang, text).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
  return Object.fromEntries(Object.entries<string>(texts).map(([key, text]) => [key, fill(text)])) as Record<K, string>;
}

/** The line at the foot of every mail to a visitor: the company's legal name and address. */
function companyLine(content: Pick<SiteContent, 'company'>): string {
  return `${content.company.legalName} · ${content.company.address}`;
}

/**
 * The layout of a mail to a visitor: the brand, its subject as the title, its preheader and
 * heading, `blocks`, and at the foot `links` (an unsubscribe link) above the company line.
 */
export function visitorMailLayout(
  lang: Lang,
  content: Pick<SiteContent, 'brand' | 'company'>,
  siteUrl: string,
  t: { subject: string; preheader: string; heading: string },
  blocks: MailLayout['blocks'],
  links: ReadonlyArray<{ text: string; href: string }> = [],
): MailLayout {
  return { lang, brand: { name: content.brand, siteUrl }, title: t.subject, preheader: t.preheader, heading: t.heading, blocks, footer: [...links, companyLine(content)] };
}

/**
 * The body of a confirmation mail (the newsletter's or a contact's): the introduction, the button
 * to `confirmUrl` with the link spelled out under it, then the link's lifetime, what to do if you
 * did not ask, and the signature.
 */
export function confirmationBlocks(t: Readonly<Record<'intro' | 'button' | 'linkHint' | 'expiry' | 'ignore' | 'signature', string>>, confirmUrl: string): MailLayout['blocks'] {
  return [
    { kind: 'paragraph', text: t.intro },
    { kind: 'action', label: t.button, href: confirmUrl, hint: t.linkHint },
    ...[t.expiry, t.ignore, t.signature].map((text) => ({ kind: 'paragraph' as const, text })),
  ];
}

/**
 * The headers of a mail of the newsletter: one-click unsubscribe (`List-Unsubscribe` with
 * `List-Unsubscribe-Post`, RFC 8058) with the subscription's token, and the list's `List-Id`.
 */
export function newsletterListHeaders(urls: PublicUrls, unsubscribeToken: string, brand: string, from: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${oneClickUrl(urls, unsubscribeToken)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'List-Id': newsletterListId(brand, from),
  };
}
