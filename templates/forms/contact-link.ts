import type { Lang } from '../../cli/site/languages.ts';
import { pathFor, type PageId } from '../../cli/site/routes.ts';
import { isSitePath, type ContactIntent } from '../../ingest/contract/schemas.ts';

/** The id of the contact form's section on the contact pages: where every demo and sales button lands. */
export const CONTACT_FORM_ID = 'contact-form';

/** The contact page of each reason: its form has that reason selected, with JavaScript or without. */
const CONTACT_PAGES: Readonly<Record<ContactIntent, PageId>> = {
  demo: 'contactDemo',
  sales: 'contactSales',
  general: 'contact',
};

/** The reason of a contact page, or undefined for any other page. */
export function intentOfPage(page: string): ContactIntent | undefined {
  return (Object.keys(CONTACT_PAGES) as ContactIntent[]).find((intent) => CONTACT_PAGES[intent] === page);
}

/**
 * A link to the contact form of a language for one reason, carrying the page the link is on
 * (`from`), so the message names where the visitor came from: the island reads `from` from the
 * address, and a form sent without JavaScript carries it in its `Referer`, which the service reads.
 * No `from` on the contact pages themselves (the page would name itself).
 *
 * @example contactLink('de', 'demo', '/de/about')  // '/de/contact/demo?from=/de/about#contact-form'
 * @example contactLink('en', 'general')            // '/contact#contact-form'
 */
export function contactLink(lang: Lang, intent: ContactIntent, from?: string): string {
  const query = from !== undefined && isSitePath(from) ? `?from=${from}` : '';
  return `${pathFor(CONTACT_PAGES[intent], lang)}${query}#${CONTACT_FORM_ID}`;
}
