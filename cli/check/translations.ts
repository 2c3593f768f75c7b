import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Problem } from '../site/errors.ts';
import { jsonKeyLines } from './json-lines.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';
import { flatten, localeFile, placeholdersOf, type Messages } from '../site/locales.ts';

interface LocaleFile {
  lang: Lang;
  file: string;
  flat: Record<string, string>;
  lines: Map<string, number>;
}

function readLocale(contentDir: string, root: string, lang: Lang): LocaleFile | Problem {
  const path = localeFile(contentDir, lang);
  const file = relative(root, path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { code: 'content_missing', file, line: 1, message: `missing: every language needs its resource file` };
  }
  let messages: Messages;
  try {
    messages = JSON.parse(text) as Messages;
  } catch (error) {
    return { code: 'content_unreadable', file, line: 1, message: `not valid JSON: ${(error as Error).message}` };
  }
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(flatten(messages))) flat[key] = typeof value === 'string' ? value : String(value);
  return { lang, file, flat, lines: jsonKeyLines(text) };
}

/**
 * Compares the resource files of all languages: a key missing in a language or present in only
 * one, an empty value, and placeholders or tags that differ from English.
 */
export function checkTranslations(contentDir: string, root: string): { problems: Problem[]; keys: number } {
  const problems: Problem[] = [];
  const locales: LocaleFile[] = [];
  for (const lang of LANGUAGES) {
    const locale = readLocale(contentDir, root, lang);
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
    for (const [key, value] of Object.entries(locale.flat)) {
      const line = locale.lines.get(key) ?? 1;
      if (value.trim() === '') problems.push({ code: 'key_empty', file: locale.file, line, message: `key "${key}" is empty` });
      const source = english?.flat[key];
      if (!english || locale === english || source === undefined) continue;
      const mine = placeholdersOf(value).join(', ');
      const theirs = placeholdersOf(source).join(', ');
      if (mine !== theirs) {
        problems.push({ code: 'placeholders_differ', file: locale.file, line, message: `key "${key}" uses placeholders {${mine}} but en uses {${theirs}}` });
      }
      const tags = (text: string) => (text.match(/<\/?\w+>/g) ?? []).join('');
      if (tags(value) !== tags(source)) {
        problems.push({ code: 'tags_differ', file: locale.file, line, message: `key "${key}" has tags ${tags(value) || '(none)'} but en has ${tags(source) || '(none)'}` });
      }
    }
  }
  return { problems, keys: english ? Object.keys(english.flat).length : allKeys.size };
}
