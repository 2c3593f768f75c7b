import { LANGS } from '../../ingest/contract/languages.ts';

/** The seven interface languages; `en` is the default and the fallback. The list is the contract's, which the service validates forms with. */
export const LANGUAGES = LANGS;

export type Lang = (typeof LANGUAGES)[number];

export const DEFAULT_LANG: Lang = 'en';

/** Each language's name written in that language, as the language menu shows it. */
export const NATIVE_NAMES: Readonly<Record<Lang, string>> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  nl: 'Nederlands',
};

/** Open Graph / BCP 47 locale for each language, e.g. `de` → `de_DE`. */
export const LOCALES: Readonly<Record<Lang, string>> = {
  en: 'en_US',
  es: 'es_ES',
  pt: 'pt_PT',
  fr: 'fr_FR',
  de: 'de_DE',
  it: 'it_IT',
  nl: 'nl_NL',
};

/** True when `value` is one of the supported language codes. */
function isLang(value: string): value is Lang {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Parses a `--lang` option: `all` or a comma-separated list of codes.
 * Returns the languages, or the list of unknown codes so the caller can report them.
 *
 * @example parseLangList('en,de') // { ok: true, langs: ['en', 'de'] }
 * @example parseLangList('en,xx') // { ok: false, unknown: ['xx'] }
 */
export function parseLangList(value: string): { ok: true; langs: Lang[] } | { ok: false; unknown: string[] } {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === 'all') return { ok: true, langs: [...LANGUAGES] };
  const parts = trimmed.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = parts.filter((p) => !isLang(p));
  if (parts.length === 0) return { ok: false, unknown: [value] };
  if (unknown.length > 0) return { ok: false, unknown };
  const langs = LANGUAGES.filter((l) => parts.includes(l));
  return { ok: true, langs };
}
