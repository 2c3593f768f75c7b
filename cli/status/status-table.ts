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

/** The width `sitegen status` keeps within: a terminal's 100 columns. */
const WIDTH = 100;

/**
 * `first` followed by `items` joined with ", ", wrapped within `WIDTH` columns; continuation lines
 * start with `indent` spaces.
 *
 * @example wrapList('es outdated: ', ['a', 'b'], 2) // → 'es outdated: a, b'
 */
function wrapList(first: string, items: readonly string[], indent: number): string {
  const lines: string[] = [];
  let line = first;
  items.forEach((item, i) => {
    const text = i < items.length - 1 ? `${item},` : item;
    const atStart = line.trim().length === 0 || line === first;
    if (!atStart && line.length + 1 + text.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent) + text;
    } else {
      line += (atStart ? '' : ' ') + text;
    }
  });
  lines.push(line);
  return lines.join('\n');
}

/**
 * The text `sitegen status` prints, within 100 columns: per language, how many pages are up to
 * date and which are not (up to date / outdated / missing), then, per language, the strings and
 * pages to update and the command that records them.
 *
 * @example statusReport(statuses, ['es', 'de'])
 * // 'lang  up to date  to update\nes    3 of 3      nothing\nde    1 of 3      home (1 outdated), healthcare (missing)\n\n…'
 */
export function statusReport(statuses: readonly ItemStatus[], langs: readonly Lang[]): string {
  const extra = [...new Set(statuses.map(columnOf))].filter((c) => !FIXED_COLUMNS.includes(c)).sort();
  const columns = [...FIXED_COLUMNS, ...extra].filter((c) => statuses.some((s) => columnOf(s) === c));
  const counts = `${columns.length} of ${columns.length}`.length;
  const indent = 4 + 2 + Math.max(counts, 'up to date'.length) + 2;
  const table = [`${'lang'.padEnd(4)}  ${'up to date'.padEnd(indent - 8)}  to update`];
  for (const lang of langs) {
    const cells = columns.map((c) => [c, cell(statuses.filter((s) => s.lang === lang && columnOf(s) === c))] as const).filter(([, text]) => text !== '');
    const current = cells.filter(([, text]) => text === 'up to date').length;
    const toUpdate = cells.filter(([, text]) => text !== 'up to date').map(([column, text]) => `${column} (${text})`);
    const head = `${lang.padEnd(4)}  ${`${current} of ${cells.length}`.padEnd(indent - 8)}  `;
    table.push(toUpdate.length === 0 ? `${head}nothing` : wrapList(head, toUpdate, indent));
  }

  const lists: string[] = [];
  for (const lang of langs) {
    const outdated = statuses.filter((s) => s.lang === lang && s.state === 'outdated').map((s) => s.item);
    const missing = statuses.filter((s) => s.lang === lang && s.state === 'missing').map((s) => s.item);
    if (outdated.length > 0) lists.push(wrapList(`${lang} outdated: `, outdated, 2));
    if (missing.length > 0) lists.push(wrapList(`${lang} missing: `, missing, 2));
  }
  const advice = lists.length === 0
    ? ['', 'Every translation is up to date with the English text.']
    : ['', ...lists, '', 'After updating a translation, record it:', '  sitegen translated <lang> <key, key prefix or page.md>…'];
  return [...table, ...advice].join('\n') + '\n';
}
