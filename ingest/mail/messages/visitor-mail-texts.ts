/**
 * What every mail to a visitor takes from the site's content the same way: the language it is
 * written in, its texts with their `{{placeholders}}` filled, and the company line at its foot.
 */
import { LANGS, type Lang } from '../../contract/schemas.ts';
import type { SiteContent } from '../../site-content.ts';

/** The language of a stored row's mail: the row's, if it is one of ours, else English. */
export function mailLang(value: string): Lang {
  return (LANGS as readonly string[]).includes(value) ? (value as Lang) : 'en';
}

/**
 * The texts of one mail with their placeholders filled; an unknown placeholder stays as written.
 *
 * @example filledTexts({ subject: 'Welcome to {{brand}}' }, { brand: 'MaskWise' }) // → { subject: 'Welcome to MaskWise' }
 */
export function filledTexts<K extends string>(texts: Readonly<Record<K, string>>, values: Readonly<Record<string, string>>): Record<K, string> {
  const fill = (text: string) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
  return Object.fromEntries(Object.entries<string>(texts).map(([key, text]) => [key, fill(text)])) as Record<K, string>;
}

/** The line at the foot of every mail to a visitor: the company's legal name and address. */
export function companyLine(content: Pick<SiteContent, 'company'>): string {
  return `${content.company.legalName} · ${content.company.address}`;
}
