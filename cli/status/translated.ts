import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Problem } from '../site/errors.ts';
import type { Lang } from '../site/languages.ts';
import { emptyLock, formatLock, parseLock, recordTranslated, translationLockFile, translationStatus, type ItemStatus, type TranslationLock } from '../site/translations/translation-lock.ts';
import { readTranslationSources } from '../site/translations/translation-sources.ts';

/** What keeps `status` and `translated` from answering: a lock file that cannot be read, a page whose front matter is refused. */
type Refusal = { problems: Problem[] };

/** Reads the lock of `contentDir` (none yet: an empty one); an unreadable file is a problem. */
function readLock(contentDir: string): TranslationLock | Refusal {
  const file = translationLockFile(contentDir);
  if (!existsSync(file)) return emptyLock();
  const lock = parseLock(readFileSync(file, 'utf8'));
  return 'error' in lock ? { problems: [{ code: 'content_unreadable', file, message: lock.error }] } : lock;
}

/** The texts the lock is about, or the pages whose front matter is refused (`---js`: never run, never counted as translated). */
function readSources(contentDir: string): ReturnType<typeof readTranslationSources> | Refusal {
  const sources = readTranslationSources(contentDir);
  return sources.refused.length > 0 ? { problems: sources.refused } : sources;
}

/** Every language's strings and pages compared with today's English, for `sitegen status`. */
export function readTranslationStatus(contentDir: string, langs: readonly Lang[]): ItemStatus[] | Refusal {
  const lock = readLock(contentDir);
  if ('problems' in lock) return lock;
  const sources = readSources(contentDir);
  return 'problems' in sources ? sources : translationStatus(sources, lock, langs);
}

/**
 * `sitegen translated`: records in the lock file that the translations of `items` (keys, key
 * prefixes, page file names; none: everything) in `langs` are made from today's English. An item
 * that matches nothing in any of `langs` is a mistake (a typo, a key the language lacks): then
 * nothing is written, nor when a page's front matter is refused. Returns what was recorded per
 * language, and the unmatched items.
 */
export function markTranslated(contentDir: string, langs: readonly Lang[], items: readonly string[]): { recorded: Map<Lang, string[]>; unmatched: string[] } | Refusal {
  let lock = readLock(contentDir);
  if ('problems' in lock) return lock;
  const sources = readSources(contentDir);
  if ('problems' in sources) return sources;
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
