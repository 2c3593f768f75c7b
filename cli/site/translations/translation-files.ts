import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Problem } from '../errors.ts';
import { jsonErrorLine, jsonKeyLines } from '../json-lines.ts';
import type { Lang } from '../languages.ts';
import { flatten, localeFile, placeholdersOf, type Messages } from '../locales.ts';
import { PLACEHOLDER_NAMES } from '../site-config.ts';

/** One language's resource file, flattened, with the line of every key. */
export interface LocaleFile {
  lang: Lang;
  /** Its path as reported (relative to the folder problems are reported from). */
  file: string;
  flat: Record<string, string>;
  /** Found when first asked for: a build reads every file and asks only to report a problem. */
  readonly lines: Map<string, number>;
}

/** Reads one language's resource file for comparison; a missing or unreadable file is a problem. */
export function readLocaleFile(contentDir: string, root: string, lang: Lang): LocaleFile | Problem {
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
    return { code: 'content_unreadable', file, line: jsonErrorLine(text, error) ?? 1, message: `not valid JSON: ${(error as Error).message}` };
  }
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(flatten(messages))) flat[key] = typeof value === 'string' ? value : String(value);
  let lines: Map<string, number> | undefined;
  return {
    lang,
    file,
    flat,
    get lines() {
      return (lines ??= jsonKeyLines(text));
    },
  };
}

/**
 * One language's resource file as `readLocaleFile` gives it, from `messages` already read and
 * validated from that file (a build's loaded content): the file is read again only when a
 * problem asks for a key's line.
 */
export function loadedLocaleFile(contentDir: string, root: string, lang: Lang, messages: Messages): LocaleFile {
  const path = localeFile(contentDir, lang);
  let lines: Map<string, number> | undefined;
  return {
    lang,
    file: relative(root, path),
    flat: flatten(messages),
    get lines() {
      return (lines ??= jsonKeyLines(readFileSync(path, 'utf8')));
    },
  };
}

const braces = (names: readonly string[]) => names.map((name) => `{{${name}}}`).join(', ');
const tagsOf = (text: string) => (text.match(/<\/?\w+>/g) ?? []).join('');

/**
 * Compares one translated string with its English source: placeholders without a value (neither
 * the English string's nor a site.json value), placeholders the English has and the translation
 * left out, and `<tags>` that differ.
 *
 * @example translationProblems(de, 'footer.copyright', '© {{anno}} {{company}}', '© {{year}} {{company}}')
 * // [{ code: 'placeholder_unknown', message: 'key "footer.copyright" uses {{anno}}, which has no value here; …' },
 * //  { code: 'placeholders_differ', message: 'key "footer.copyright" leaves out {{year}}, which en uses' }]
 */
export function translationProblems(locale: LocaleFile, key: string, value: string, source: string): Problem[] {
  // The key's line is found only for a problem: finding it reads the whole file again.
  const at = () => ({ file: locale.file, line: locale.lines.get(key) ?? 1 });
  const problems: Problem[] = [];
  const mine = placeholdersOf(value);
  const theirs = placeholdersOf(source);
  const unknown = mine.filter((name) => !theirs.includes(name) && !(PLACEHOLDER_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    const valid = theirs.length > 0 ? `${braces(theirs)} (as en uses) and the site values ${braces(PLACEHOLDER_NAMES)}` : `the site values ${braces(PLACEHOLDER_NAMES)}`;
    problems.push({ code: 'placeholder_unknown', ...at(), message: `key "${key}" uses ${braces(unknown)}, which has no value here; valid placeholders: ${valid}` });
  }
  const left = theirs.filter((name) => !mine.includes(name));
  if (left.length > 0) problems.push({ code: 'placeholders_differ', ...at(), message: `key "${key}" leaves out ${braces(left)}, which en uses` });
  if (tagsOf(value) !== tagsOf(source)) {
    problems.push({ code: 'tags_differ', ...at(), message: `key "${key}" has tags ${tagsOf(value) || '(none)'} but en has ${tagsOf(source) || '(none)'}` });
  }
  return problems;
}

/** The keys of the English file that `locale` lacks, each reported at the nearest parent key's line. */
export function missingKeys(locale: LocaleFile, english: LocaleFile): Problem[] {
  return Object.keys(english.flat)
    .filter((key) => !(key in locale.flat))
    .map((key) => ({
      code: 'key_missing',
      file: locale.file,
      line: locale.lines.get(key.split('.').slice(0, -1).join('.')) ?? 1,
      message: `key "${key}" is missing (en has it: "${english.flat[key]}")`,
    }));
}
