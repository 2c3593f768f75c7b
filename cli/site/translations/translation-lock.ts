import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../languages.ts';

/**
 * The translation lock, `content/translations.lock.json`: for every English string and page, the
 * hash of the English text each language's translation was made from. `sitegen translated`
 * writes it; `sitegen check` and `sitegen status` compare it with the English of today.
 *
 * On disk, one line per string or page, each hash listing its languages:
 *
 * ```json
 * "strings": {
 *   "hero.title": { "9b1c0e2a": "de es fr it nl pt" },
 *   "hero.subtitle": { "51d0c3f4": "es fr", "0c7e99aa": "de it nl pt" }
 * },
 * "pages": { "privacy.md": { "77a0b1c2": "de es fr it nl pt" } }
 * ```
 */
export interface TranslationLock {
  /** key → English hash → the languages translated from that English. */
  strings: Record<string, Record<string, Lang[]>>;
  /** page file name (`privacy.md`, `healthcare.md`) → English hash → languages. */
  pages: Record<string, Record<string, Lang[]>>;
}

/** The texts the lock is about, in every language: strings by key and pages by file name. */
export interface TranslationSources {
  strings: ReadonlyMap<Lang, Readonly<Record<string, string>>>;
  /** file name (`privacy.md`) → the page's translatable text (for a page with front matter: title, description, link text, body). */
  pages: ReadonlyMap<Lang, ReadonlyMap<string, string>>;
}

/** Where one language stands on one string or page against today's English. */
export interface ItemStatus {
  lang: Lang;
  kind: 'string' | 'page';
  /** The key (`hero.title`) or the page's file name (`privacy.md`). */
  item: string;
  /** `outdated` also covers a translation with no record yet of the English it was made from. */
  state: 'current' | 'outdated' | 'missing';
  /** False when the lock has no hash for this language and item at all. */
  recorded: boolean;
}

/** The path of the lock file in a content folder. */
export function translationLockFile(contentDir: string): string {
  return join(contentDir, 'translations.lock.json');
}

/** The short hash the lock records of an English text. */
export function hashText(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex').slice(0, 8);
}

const NON_ENGLISH = LANGUAGES.filter((lang) => lang !== DEFAULT_LANG);
const langList = z.string().transform((text) => text.split(/\s+/).filter((code): code is Lang => (NON_ENGLISH as readonly string[]).includes(code)));
const lockSchema = z.object({
  about: z.string().optional(),
  strings: z.record(z.string(), z.record(z.string(), langList)).default({}),
  pages: z.record(z.string(), z.record(z.string(), langList)).default({}),
});

/** An empty lock: no translation recorded (every translated text counts as outdated). */
export function emptyLock(): TranslationLock {
  return { strings: {}, pages: {} };
}

/** Reads the lock file's text; a text that is not a lock gives the reason instead. */
export function parseLock(text: string): TranslationLock | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { error: `not valid JSON: ${(error as Error).message}` };
  }
  const parsed = lockSchema.safeParse(raw);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { strings: parsed.data.strings, pages: parsed.data.pages };
}

const ABOUT = 'Written by `sitegen translated`: for each English string and page, the hash of the English text each language was translated from. `sitegen check` warns when the English has changed since. Do not edit by hand.';

/** The lock as its file holds it: sorted, one string or page per line, so a change is one line of a diff. */
export function formatLock(lock: TranslationLock): string {
  const section = (entries: Record<string, Record<string, Lang[]>>) =>
    Object.keys(entries)
      .sort()
      .filter((item) => Object.keys(entries[item]!).length > 0)
      .map((item) => {
        const hashes = Object.entries(entries[item]!)
          .filter(([, langs]) => langs.length > 0)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([hash, langs]) => `${JSON.stringify(hash)}: ${JSON.stringify([...langs].sort().join(' '))}`);
        return `    ${JSON.stringify(item)}: { ${hashes.join(', ')} }`;
      })
      .join(',\n');
  return `{\n  "about": ${JSON.stringify(ABOUT)},\n  "strings": {\n${section(lock.strings)}\n  },\n  "pages": {\n${section(lock.pages)}\n  }\n}\n`;
}

/** The hash `lang` was last recorded as translated from, for one item of one section. */
function recordedHash(entries: Record<string, Lang[]> | undefined, lang: Lang): string | undefined {
  return Object.entries(entries ?? {}).find(([, langs]) => langs.includes(lang))?.[0];
}

/**
 * Compares every language's strings and pages with today's English and the lock: `missing` when
 * the language lacks the key or page, `outdated` when the English hash differs from the one
 * recorded (or none is), else `current`.
 *
 * @example translationStatus(sources, lock, ['de'])
 * // [{ lang: 'de', kind: 'string', item: 'hero.title', state: 'current', recorded: true }, …,
 * //  { lang: 'de', kind: 'page', item: 'healthcare.md', state: 'outdated', recorded: true }]
 */
export function translationStatus(sources: TranslationSources, lock: TranslationLock, langs: readonly Lang[] = NON_ENGLISH): ItemStatus[] {
  const englishStrings = sources.strings.get(DEFAULT_LANG) ?? {};
  const englishPages = sources.pages.get(DEFAULT_LANG) ?? new Map<string, string>();
  const statuses: ItemStatus[] = [];
  for (const lang of langs.filter((l) => l !== DEFAULT_LANG)) {
    const strings = sources.strings.get(lang);
    for (const [key, english] of Object.entries(englishStrings)) {
      const recorded = recordedHash(lock.strings[key], lang);
      const state = strings === undefined || !(key in strings) ? 'missing' : recorded === hashText(english) ? 'current' : 'outdated';
      statuses.push({ lang, kind: 'string', item: key, state, recorded: recorded !== undefined });
    }
    const pages = sources.pages.get(lang);
    for (const [name, english] of englishPages) {
      const recorded = recordedHash(lock.pages[name], lang);
      const state = !pages?.has(name) ? 'missing' : recorded === hashText(english) ? 'current' : 'outdated';
      statuses.push({ lang, kind: 'page', item: name, state, recorded: recorded !== undefined });
    }
  }
  return statuses;
}

/**
 * Records that `lang`'s translations of `items` are made from today's English. An item is a key
 * (`hero.title`), a key prefix (`hero`: every key under it) or a page file name (`privacy.md`);
 * none means every string and page the language has. Entries of strings and pages English no
 * longer has are dropped. Returns the new lock, what was recorded, and the items that matched
 * nothing the language has.
 *
 * @example recordTranslated(lock, sources, 'de', ['hero', 'healthcare.md'])
 * // { lock: {…}, recorded: ['hero.cta', …, 'healthcare.md'], unmatched: [] }
 */
export function recordTranslated(lock: TranslationLock, sources: TranslationSources, lang: Lang, items: readonly string[] = []): { lock: TranslationLock; recorded: string[]; unmatched: string[] } {
  const englishStrings = sources.strings.get(DEFAULT_LANG) ?? {};
  const englishPages = sources.pages.get(DEFAULT_LANG) ?? new Map<string, string>();
  const strings = sources.strings.get(lang) ?? {};
  const pages = sources.pages.get(lang) ?? new Map<string, string>();
  const keys = Object.keys(englishStrings).filter((key) => key in strings);
  const names = [...englishPages.keys()].filter((name) => pages.has(name));
  const matchesKey = (item: string, key: string) => key === item || key.startsWith(`${item}.`);
  const chosenKeys = items.length === 0 ? keys : keys.filter((key) => items.some((item) => matchesKey(item, key)));
  const chosenPages = items.length === 0 ? names : names.filter((name) => items.includes(name));
  const unmatched = items.filter((item) => !chosenKeys.some((key) => matchesKey(item, key)) && !chosenPages.includes(item));

  const record = (entries: Record<string, Record<string, Lang[]>>, current: ReadonlyMap<string, string>, chosen: readonly string[]) => {
    const next: Record<string, Record<string, Lang[]>> = {};
    for (const [item, english] of current) {
      const hashes: Record<string, Lang[]> = {};
      for (const [hash, langs] of Object.entries(entries[item] ?? {})) hashes[hash] = chosen.includes(item) ? langs.filter((l) => l !== lang) : [...langs];
      if (chosen.includes(item)) {
        const hash = hashText(english);
        hashes[hash] = [...(hashes[hash] ?? []), lang].sort();
      }
      const kept = Object.fromEntries(Object.entries(hashes).filter(([, langs]) => langs.length > 0));
      if (Object.keys(kept).length > 0) next[item] = kept;
    }
    return next;
  };
  return {
    lock: { strings: record(lock.strings, new Map(Object.entries(englishStrings)), chosenKeys), pages: record(lock.pages, englishPages, chosenPages) },
    recorded: [...chosenKeys, ...chosenPages],
    unmatched,
  };
}
