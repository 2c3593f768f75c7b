import { COUNTRY_CODES } from '../../ingest/contract/countries.ts';

/** One entry of the country select: the value sent (lower-case alpha-2) and the visible label. */
export interface CountryOption {
  value: string;
  label: string;
}

/** The flag emoji of an alpha-2 code, built from regional indicator symbols (`es` → 🇪🇸). */
function flagOf(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/**
 * Every ISO 3166-1 country with its flag and its name in `lang`, sorted the way that language sorts.
 *
 * @example countryOptions('de')[0] // { value: 'af', label: 'Afghanistan 🇦🇫' }
 */
export function countryOptions(lang: string): CountryOption[] {
  const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(lang);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code.toUpperCase()) ?? code.toUpperCase() }))
    .sort((a, b) => collator.compare(a.name, b.name))
    // The flag follows the name, so typing a country's first letters selects it in the list.
    .map(({ code, name }) => ({ value: code, label: `${name} ${flagOf(code)}` }));
}
