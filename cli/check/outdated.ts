import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Problem } from '../site/errors.ts';
import { DEFAULT_LANG } from '../site/languages.ts';
import { localeFile } from '../site/locales.ts';
import { jsonKeyLines } from '../site/json-lines.ts';
import { parseLock, translationLockFile, translationStatus } from '../site/translations/translation-lock.ts';
import { readTranslationSources } from '../site/translations/translation-sources.ts';

/**
 * Finds the translations made from an English text that has changed since, by the hashes of
 * `content/translations.lock.json`: one problem per language and string or page, at the
 * translation's file and line. A lock file that cannot be read is an error of its own.
 */
export function checkOutdated(contentDir: string, root: string): { outdated: Problem[]; problems: Problem[] } {
  const lockPath = translationLockFile(contentDir);
  const lockFile = relative(root, lockPath);
  if (!existsSync(lockPath)) {
    return { outdated: [{ code: 'translation_outdated', file: lockFile, message: 'missing: no translation is recorded yet; run `sitegen translated all` once the translations are up to date' }], problems: [] };
  }
  const lock = parseLock(readFileSync(lockPath, 'utf8'));
  if ('error' in lock) return { outdated: [], problems: [{ code: 'content_unreadable', file: lockFile, line: 1, message: `is not a translation lock: ${lock.error}` }] };

  const sources = readTranslationSources(contentDir);
  const english = sources.strings.get(DEFAULT_LANG) ?? {};
  const lines = new Map<string, Map<string, number>>();
  const lineOf = (path: string, key: string) => {
    if (!lines.has(path)) lines.set(path, existsSync(path) ? jsonKeyLines(readFileSync(path, 'utf8')) : new Map());
    return lines.get(path)!.get(key) ?? 1;
  };
  const outdated = translationStatus(sources, lock)
    .filter((status) => status.state === 'outdated')
    .map(({ lang, kind, item, recorded }): Problem => {
      const then = `then run \`sitegen translated ${lang} ${item}\``;
      if (kind === 'page') {
        const file = relative(root, join(contentDir, 'pages', lang, item));
        const why = recorded ? `the en text of ${item} changed since this translation was made` : `no record of the en text this translation was made from`;
        return { code: 'translation_outdated', file, line: 1, message: `${why}; compare with pages/en/${item}, update, ${then}` };
      }
      const path = localeFile(contentDir, lang);
      const why = recorded ? `key "${item}": the en text changed since this translation was made` : `key "${item}": no record of the en text this translation was made from`;
      return { code: 'translation_outdated', file: relative(root, path), line: lineOf(path, item), message: `${why} (en now: "${english[item]}"); update it, ${then}` };
    });
  return { outdated, problems: [] };
}
