import type { Problem } from '../site/errors.ts';
import { mailTextProblems } from './mail-texts.ts';
import { DEFAULT_LANG, LANGUAGES } from '../site/languages.ts';
import { type LocaleFile, readLocaleFile, translationProblems } from '../site/translations/translation-files.ts';

/**
 * Compares the resource files of all languages: a key missing in a language or present in only
 * one, an empty value, placeholders without a value or left out, tags that differ from English,
 * and mail texts the ingest service would refuse.
 */
export function checkTranslations(contentDir: string, root: string): { problems: Problem[]; keys: number } {
  const problems: Problem[] = [];
  const locales: LocaleFile[] = [];
  for (const lang of LANGUAGES) {
    const locale = readLocaleFile(contentDir, root, lang);
    if ('message' in locale) problems.push(locale);
    else locales.push(locale);
  }
  const allKeys = new Set(locales.flatMap((l) => Object.keys(l.flat)));
  const english = locales.find((l) => l.lang === DEFAULT_LANG);
  for (const key of [...allKeys].sort()) {
    const having = locales.filter((l) => key in l.flat);
    if (having.length === 1 && locales.length > 1) {
      const only = having[0]!;
      problems.push({ code: 'key_only_in_one_language', file: only.file, line: only.lines.get(key) ?? 1, message: `key "${key}" exists only in ${only.lang}` });
      continue;
    }
    for (const locale of locales.filter((l) => !(key in l.flat))) {
      const parent = key.split('.').slice(0, -1).join('.');
      problems.push({
        code: 'key_missing',
        file: locale.file,
        line: locale.lines.get(parent) ?? 1,
        message: `key "${key}" is missing (present in ${having.map((l) => l.lang).join(', ')})`,
      });
    }
  }
  for (const locale of locales) {
    problems.push(...mailTextProblems(locale));
    for (const [key, value] of Object.entries(locale.flat)) {
      if (value.trim() === '') problems.push({ code: 'key_empty', file: locale.file, line: locale.lines.get(key) ?? 1, message: `key "${key}" is empty` });
      const source = english?.flat[key];
      if (english && locale !== english && source !== undefined) problems.push(...translationProblems(locale, key, value, source));
    }
  }
  return { problems, keys: english ? Object.keys(english.flat).length : allKeys.size };
}
