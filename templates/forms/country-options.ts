import { COUNTRY_CODES } from '../../ingest/contract/countries.ts';

/** One entry of the country select: the value sent (lower-case alpha-2) and the visible label. */
export interface CountryOption {
  value: string;
  label: string;
}

/**
 * Every ISO 3166-1 country with its name in `lang`, sorted the way that language sorts. Names
 * only, no flag emoji: without an emoji font (Windows, many Linux desktops) a flag shows as an
 * empty box or two letters.
 *
 * @example countryOptions('de')[0] // { value: 'af', label: 'Afghanistan' }
 */
export function countryOptions(lang: string): CountryOption[] {
  const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(lang);
  return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code.toUpperCase()) ?? code.toUpperCase() }))
    .sort((a, b) => collator.compare(a.label, b.label));
}
