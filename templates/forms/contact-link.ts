import type { Lang } from '../../cli/site/languages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import type { ContactIntent } from '../../ingest/contract/schemas.ts';

/** The id of the contact form's section on the contact page: where every demo and sales button lands. */
export const CONTACT_FORM_ID = 'contact-form';

/**
 * A link to the contact form of a language that tells the form why the visitor comes; the form's
 * island preselects the reason from the `intent` parameter (without JavaScript the visitor picks it).
 *
 * @example contactLink('de', 'demo')    // '/de/contact?intent=demo#contact-form'
 * @example contactLink('en', 'general') // '/contact#contact-form'
 */
export function contactLink(lang: Lang, intent: ContactIntent): string {
  const query = intent === 'general' ? '' : `?intent=${intent}`;
  return `${pathFor('contact', lang)}${query}#${CONTACT_FORM_ID}`;
}
