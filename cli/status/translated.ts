import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Lang } from '../site/languages.ts';
import { emptyLock, formatLock, parseLock, recordTranslated, translationLockFile, translationStatus, type ItemStatus, type TranslationLock } from '../site/translations/translation-lock.ts';
import { readTranslationSources } from '../site/translations/translation-sources.ts';

/** Reads the lock of `contentDir` (none yet: an empty one); an unreadable file gives its reason. */
function readLock(contentDir: string): TranslationLock | { error: string } {
  const file = translationLockFile(contentDir);
  return existsSync(file) ? parseLock(readFileSync(file, 'utf8')) : emptyLock();
}

/** Every language's strings and pages compared with today's English, for `sitegen status`. */
export function readTranslationStatus(contentDir: string, langs: readonly Lang[]): ItemStatus[] | { error: string } {
  const lock = readLock(contentDir);
  return 'error' in lock ? lock : translationStatus(readTranslationSources(contentDir), lock, langs);
}

/**
 * `sitegen translated`: records in the lock file that the translations of `items` (keys, key
 * prefixes, page file names; none: everything) in `langs` are made from today's English. An item
 * that matches nothing in any of `langs` is a mistake (a typo, a key the language lacks): then
 * nothing is written. Returns what was recorded per language, and the unmatched items.
 */
export function markTranslated(contentDir: string, langs: readonly Lang[], items: readonly string[]): { recorded: Map<Lang, string[]>; unmatched: string[] } | { error: string } {
  let lock = readLock(contentDir);
  if ('error' in lock) return lock;
  const sources = readTranslationSources(contentDir);
  const recorded = new Map<Lang, string[]>();
  let unmatched = [...items];
  for (const lang of langs) {
    const result = recordTranslated(lock, sources, lang, items);
    lock = result.lock;
    recorded.set(lang, result.recorded);
    unmatched = unmatched.filter((item) => result.unmatched.includes(item));
  }
  if (unmatched.length === 0) writeFileSync(translationLockFile(contentDir), formatLock(lock));
  return { recorded, unmatched };
}
