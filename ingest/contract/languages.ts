/**
 * The seven languages of the site and of everything the service sends, `en` first (the default
 * and the fallback): the one list both programs read (`cli/site/languages.ts` builds the site's
 * language model on it; the contract validates a form's `lang` with it).
 */
export const LANGS = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl'] as const;

/** One of `LANGS`. */
export type Lang = (typeof LANGS)[number];
