import { EVERY_PAGE, pageOfKey } from '../site/key-pages.ts';
import type { Lang } from '../site/languages.ts';
import type { ItemStatus } from '../site/translations/translation-lock.ts';

/** The columns in the order the site shows them: shared strings, the fixed pages, then the pages added as Markdown. */
const FIXED_COLUMNS = [EVERY_PAGE, 'home', 'about', 'contact', 'legal-notice', 'privacy', 'cookies'];

/** The page (column) an item belongs to: a key by its prefix, a page file by its name. */
function columnOf(status: ItemStatus): string {
  return status.kind === 'page' ? status.item.replace(/\.md$/, '') : pageOfKey(status.item);
}

/** One cell: `up to date`, `missing` (the whole page), or counts such as `2 outdated, 1 missing`. */
function cell(statuses: readonly ItemStatus[]): string {
  if (statuses.length === 0) return '';
  if (statuses.some((s) => s.kind === 'page' && s.state === 'missing')) return 'missing';
  const outdated = statuses.filter((s) => s.state === 'outdated').length;
  const missing = statuses.filter((s) => s.state === 'missing').length;
  const parts = [outdated ? `${outdated} outdated` : '', missing ? `${missing} missing` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'up to date';
}

/**
 * The text `sitegen status` prints: a table of languages × pages (up to date / outdated /
 * missing), then, per language, the strings and pages to update and the command that records them.
 *
 * @example statusReport(statuses, ['es', 'de'])
 * // 'lang  every page  home        …  healthcare\nes    up to date  up to date  …  up to date\nde    up to date  1 outdated  …  missing\n\n…'
 */
export function statusReport(statuses: readonly ItemStatus[], langs: readonly Lang[]): string {
  const extra = [...new Set(statuses.map(columnOf))].filter((c) => !FIXED_COLUMNS.includes(c)).sort();
  const columns = [...FIXED_COLUMNS, ...extra].filter((c) => statuses.some((s) => columnOf(s) === c));
  const rows = [['lang', ...columns], ...langs.map((lang) => [lang, ...columns.map((c) => cell(statuses.filter((s) => s.lang === lang && columnOf(s) === c)))])];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i + 1]!.length)));
  const table = rows.map((row) => [row[0]!.padEnd(4), ...row.slice(1).map((text, i) => text.padEnd(widths[i]!))].join('  ').trimEnd());

  const lists: string[] = [];
  for (const lang of langs) {
    const outdated = statuses.filter((s) => s.lang === lang && s.state === 'outdated').map((s) => s.item);
    const missing = statuses.filter((s) => s.lang === lang && s.state === 'missing').map((s) => s.item);
    if (outdated.length > 0) lists.push(`${lang} outdated: ${outdated.join(', ')}`);
    if (missing.length > 0) lists.push(`${lang} missing: ${missing.join(', ')}`);
  }
  const advice = lists.length === 0
    ? ['', 'Every translation is up to date with the English text.']
    : ['', ...lists, '', 'After updating a translation, record it: sitegen translated <lang> <key, key prefix or page.md>…'];
  return [...table, ...advice].join('\n') + '\n';
}
