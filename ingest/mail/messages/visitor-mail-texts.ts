/**
 * What every mail takes from the site's content the same way: the language it is written in, its
 * texts typeset for that language with their `{{placeholders}}` filled, and the company line at
 * the foot of the mails to a visitor.
 */
import { LANGS, type Lang } from '../../contract/languages.ts';
import type { SiteContent } from '../../site-content.ts';
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
export function companyLine(content: Pick<SiteContent, 'company'>): string {
  return `${content.company.legalName} · ${content.company.address}`;
}
