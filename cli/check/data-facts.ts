/**
 * `sitegen check`'s rules for the numbers the service applies (`ingest/contract/data-facts.ts`):
 * a Markdown page or a string that writes one of those durations by hand ("7 days", "zwei Jahre")
 * instead of its `{{placeholder}}` is a problem, and so is a language's Markdown page that leaves
 * out a fact its English page states. Markdown table rows are not read for durations: the cookie
 * table states lifetimes its providers set (Google's `_ga`: 2 years), not ours. Then a change to the table changes every text, and no
 * translation can state fewer facts than English.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DATA_FACT_NAMES, DATA_FACTS, type DataFact, unitOf } from '../../ingest/contract/data-facts.ts';
import type { Problem } from '../site/errors.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';
import { readLocaleFile } from '../site/translations/translation-files.ts';

type Unit = 'days' | 'hours' | 'minutes' | 'years';

/** Each language's words for the units of the facts, in every form a sentence may use. */
const UNIT_WORDS: Record<Lang, Record<Unit, string>> = {
  en: { days: 'days?', hours: 'hours?', minutes: 'minutes?', years: 'years?' },
  es: { days: 'd[ií]as?', hours: 'horas?', minutes: 'minutos?', years: 'años?' },
  pt: { days: 'dias?', hours: 'horas?', minutes: 'minutos?', years: 'anos?' },
  fr: { days: 'jours?|journées?', hours: 'heures?', minutes: 'minutes?', years: 'ans|années?' },
  de: { days: 'Tag(?:e|en|es)?', hours: 'Stunden?', minutes: 'Minuten?', years: 'Jahr(?:e|en|es)?' },
  it: { days: 'giorn[oi]', hours: 'or[ae]', minutes: 'minut[oi]', years: 'ann[oi]' },
  nl: { days: 'dag(?:en)?', hours: 'uur|uren', minutes: 'minuut|minuten', years: 'jaar|jaren' },
};

/**
 * Each language's number words from two to ten (index = value). One is left out: "un minuto",
 * "eine Minute" may just as well read "a minute", so only a written digit 1 counts.
 */
const NUMBER_WORDS: Record<Lang, string[]> = {
  en: ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'],
  es: ['', '', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez'],
  pt: ['', '', 'dois|duas', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', 'dez'],
  fr: ['', '', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix'],
  de: ['', '', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'],
  it: ['', '', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove', 'dieci'],
  nl: ['', '', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen', 'tien'],
};

/** The durations of the table by unit: value → the fact's name. */
const FACTS_BY_UNIT: Record<Unit, Map<number, DataFact>> = (() => {
  const byUnit: Record<Unit, Map<number, DataFact>> = { days: new Map(), hours: new Map(), minutes: new Map(), years: new Map() };
  for (const name of DATA_FACT_NAMES) {
    const unit = unitOf(name);
    if (unit !== 'count' && !byUnit[unit].has(DATA_FACTS[name])) byUnit[unit].set(DATA_FACTS[name], name);
  }
  return byUnit;
})();

/** Per language and unit, the pattern of a number (digits or a word) followed by the unit's word. */
const DURATION_PATTERNS = new Map(
  Object.entries(UNIT_WORDS).map(([lang, words]) => {
    const numbers = `\\d+|${NUMBER_WORDS[lang as Lang].filter(Boolean).join('|')}`;
    const pattern = (unit: Unit) => new RegExp(`(?<![\\p{L}\\p{N}{])(${numbers})[\\s\\u00a0\\u202f-]+(?:${words[unit]})(?![\\p{L}])`, 'giu');
    return [lang as Lang, (Object.keys(FACTS_BY_UNIT) as Unit[]).map((unit) => [unit, pattern(unit)] as const)];
  }),
);

/** The value a number written as digits or as a word has in `lang`, or null. */
function numberValue(lang: Lang, written: string): number | null {
  if (/^\d+$/.test(written)) return Number(written);
  const lower = written.toLowerCase();
  const index = NUMBER_WORDS[lang].findIndex((forms) => forms !== '' && forms.split('|').includes(lower));
  return index > 0 ? index : null;
}

/**
 * The durations of the facts table that `text` writes by hand in `lang`: each with the words as
 * written and the placeholder to use instead.
 *
 * @example handWrittenFacts('en', 'a link valid for 7 days') // → [{ written: '7 days', fact: 'linkDays' }]
 */
export function handWrittenFacts(lang: Lang, text: string): Array<{ written: string; fact: DataFact }> {
  const found: Array<{ written: string; fact: DataFact }> = [];
  for (const [unit, pattern] of DURATION_PATTERNS.get(lang)!) {
    for (const match of text.matchAll(pattern)) {
      const value = numberValue(lang, match[1]!);
      const fact = value === null ? undefined : FACTS_BY_UNIT[unit].get(value);
      if (fact !== undefined) found.push({ written: match[0], fact });
    }
  }
  return found;
}

/** The facts a text states through placeholders. */
export function factsStated(text: string): Set<DataFact> {
  const names = new Set<string>(DATA_FACT_NAMES);
  return new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).filter((name): name is DataFact => names.has(name)));
}

/** The problems of the facts rules over `contentDir` (paths relative to `root`). */
export function checkDataFacts(contentDir: string, root: string): Problem[] {
  const problems: Problem[] = [];
  const byHand = (file: string, line: number, lang: Lang, text: string) => {
    for (const { written, fact } of handWrittenFacts(lang, text)) {
      const value = DATA_FACTS[fact];
      const unit = value === 1 ? unitOf(fact).replace(/s$/, '') : unitOf(fact);
      problems.push({ code: 'fact_by_hand', file, line, message: `writes "${written}" by hand: use {{${fact}}} (${value} ${unit}, the number the service applies)` });
    }
  };
  const pagesDir = join(contentDir, 'pages');
  const englishPages = existsSync(join(pagesDir, DEFAULT_LANG)) ? readdirSync(join(pagesDir, DEFAULT_LANG)).filter((name) => name.endsWith('.md')) : [];
  for (const lang of LANGUAGES) {
    // A missing or unreadable locale file is the translations check's problem.
    const locale = readLocaleFile(contentDir, root, lang);
    if (!('code' in locale)) for (const [key, value] of Object.entries(locale.flat)) byHand(locale.file, locale.lines.get(key) ?? 1, lang, value);
    for (const name of englishPages) {
      const path = join(pagesDir, lang, name);
      if (!existsSync(path)) continue; // a missing page is the pages check's warning
      const file = relative(root, path);
      const source = readFileSync(path, 'utf8');
      // A table row states someone else's facts (a cookie's lifetime set by its provider), not ours.
      source.split('\n').forEach((text, index) => /^\s*\|/.test(text) || byHand(file, index + 1, lang, text));
      if (lang === DEFAULT_LANG) continue;
      const stated = factsStated(source);
      for (const fact of factsStated(readFileSync(join(pagesDir, DEFAULT_LANG, name), 'utf8'))) {
        if (!stated.has(fact)) problems.push({ code: 'fact_missing', file, line: 1, message: `states no {{${fact}}}, which pages/${DEFAULT_LANG}/${name} states` });
      }
    }
  }
  return problems;
}
