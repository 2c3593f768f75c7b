import type { Lang } from '../../cli/site/languages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { CONTACT_INTENTS, type ContactIntent } from '../../ingest/contract/schemas.ts';

/** The id of the contact form's section on the contact page: where every demo and sales button lands. */
export const CONTACT_FORM_ID = 'contact-form';

/**
 * A link to the contact form of a language that tells the form why the visitor comes; the page
 * preselects the reason from the `intent` parameter (`PRESELECT_INTENT_SCRIPT`; without JavaScript
 * the visitor picks it).
 *
 * @example contactLink('de', 'demo')    // '/de/contact?intent=demo#contact-form'
 * @example contactLink('en', 'general') // '/contact#contact-form'
 */
export function contactLink(lang: Lang, intent: ContactIntent): string {
  const query = intent === 'general' ? '' : `?intent=${intent}`;
  return `${pathFor('contact', lang)}${query}#${CONTACT_FORM_ID}`;
}

/**
 * The inline script placed right after the contact form: it runs as the browser parses the page,
 * before the first paint and long before the form's island hydrates, and selects in the reason
 * control (`#contact-intent`) the reason of the link: `?intent=demo` → "Request a demo". Any other
 * value leaves the control as rendered. One text on every page, so the hosts' Content-Security-Policy
 * allows it by one hash (`inlineHashes` in cli/host/security-headers.ts). When the browser restores
 * the form of a page visited before (back button), the visitor's own choice replaces it.
 */
export const PRESELECT_INTENT_SCRIPT =
  `(function(){var m=/[?&]intent=(${CONTACT_INTENTS.join('|')})(?:&|$)/.exec(location.search),` +
  `s=document.getElementById('contact-intent');if(m&&s)s.value=m[1]})()`;
