import type { ContactIntent } from '../../ingest/contract/schemas.ts';
import { usePage } from '../page-context.tsx';
import { contactLink, intentOfPage } from './contact-link.ts';

/**
 * The contact links of the page being rendered: `link('demo')` leads to the demo page of the
 * page's language and names this page as where the visitor came from (`contactLink`).
 */
export function usePageContactLink(): (intent: ContactIntent) => string {
  const { lang, page, routes } = usePage();
  const from = page === 'notFound' || intentOfPage(page) !== undefined ? undefined : routes.pathFor(page, lang);
  return (intent) => contactLink(lang, intent, from);
}
