/**
 * ISO 3166-1 alpha-2 country codes, lower case, as the contact form's `country` field expects.
 *
 * Only codes, no names: the site shows each code's name in the visitor's language with
 * `new Intl.DisplayNames([lang], { type: 'region' }).of(code.toUpperCase())`, so this module
 * stays small enough for the browser islands. The list holds the 249 officially assigned codes
 * (ISO 3166 Maintenance Agency); user-assigned codes such as `xk` and exceptionally reserved
 * ones such as `uk`, `eu` or `ac` are not countries here.
 */
// The codes are written as one run of letters, two per code, grouped by first letter: the list
// ships in the contact form's island, where 249 quoted strings cost ~180 bytes more gzip.
const PACKED =
  'adaeafagaialamaoaqarasatauawaxaz' +
  'babbbdbebfbgbhbibjblbmbnbobqbrbsbtbvbwbybz' +
  'cacccdcfcgchcickclcmcncocrcucvcwcxcycz' +
  'dedjdkdmdodz' +
  'eceeegehereset' +
  'fifjfkfmfofr' +
  'gagbgdgegfggghgiglgmgngpgqgrgsgtgugwgy' +
  'hkhmhnhrhthu' +
  'idieiliminioiqirisit' +
  'jejmjojp' +
  'kekgkhkikmknkpkrkwkykz' +
  'lalblclilklrlsltlulvly' +
  'mamcmdmemfmgmhmkmlmmmnmompmqmrmsmtmumvmwmxmymz' +
  'nancnenfngninlnonpnrnunz' +
  'om' +
  'papepfpgphpkplpmpnprpsptpwpy' +
  'qa' +
  'rerorsrurw' +
  'sasbscsdsesgshsisjskslsmsnsosrssstsvsxsysz' +
  'tctdtftgthtjtktltmtntotrtttvtwtz' +
  'uaugumusuyuz' +
  'vavcvevgvivnvu' +
  'wfws' +
  'yeyt' +
  'zazmzw';

/** Every code, in alphabetical order: `['ad', 'ae', 'af', …]`. */
export const COUNTRY_CODES: readonly string[] = PACKED.match(/../g)!;

const COUNTRY_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** Tells whether `code` is an assigned ISO 3166-1 alpha-2 code in lower case: `isCountryCode('de')` → true, `isCountryCode('DE')` → false. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_SET.has(code);
}
