/**
 * `ingest export`: a table's rows as CSV or JSON Lines, optionally only those created since a date.
 * The newsletter export holds confirmed subscriptions only (a pending signup has not confirmed).
 *
 * CSV follows RFC 4180 with every cell quoted (quotes doubled) and one guard, so a visitor's
 * "name" cannot become a formula when sales open the file in a spreadsheet: a `'` goes before
 * `=`, `+`, `-` or `@` at the start of a text cell *and* after any character a spreadsheet might
 * split cells or rows on (`,` `;` tab `|` CR LF, then any spaces or quotes). Excel with a `;`
 * list separator (de, fr, es, it, nl, pt) reads a comma file's `x;=cmd|…` as two cells, so
 * guarding the cell start alone is not enough. A phone number like +34… therefore shows as
 * '+34…, and a message line "- item" as "'- item". JSON Lines carries the values untouched.
 */
import type { OpsDatabase } from '../store/ops-database.ts';

/** The tables that can be exported. */
export const EXPORT_TABLES = ['newsletter', 'contacts'] as const;

/** The export formats. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;

/** What to export. */
export interface ExportRequest {
  table: (typeof EXPORT_TABLES)[number];
  format: (typeof EXPORT_FORMATS)[number];
  /** Only rows created at or after this instant (ms since the epoch). */
  since?: number;
}

/** Reads the rows to export, oldest first. */
async function readRows(db: OpsDatabase, request: ExportRequest): Promise<Array<Record<string, unknown>>> {
  const since = request.since === undefined ? '' : new Date(request.since).toISOString();
  if (request.table === 'contacts') {
    return db.all(db.kysely.selectFrom('contacts').selectAll().where('created_at', '>=', since).orderBy('id'));
  }
  // A signup still waiting for its confirmation is no subscription: it must never reach a mailing list.
  return db.all(db.kysely.selectFrom('newsletter').selectAll().where('status', '=', 'confirmed').where('created_at', '>=', since).orderBy('id'));
}

// A formula trigger at the start of the text, or after a separator a spreadsheet might use,
// with spaces and quotes in between (an importer may trim both).
const FORMULA_START = /(^|[,;\t|\r\n])([\s"]*)(?=[=+\-@])/g;

/**
 * One CSV cell, always quoted, with formula triggers in text neutralised by a `'`.
 *
 * @example csvCell('a "b"') // → '"a ""b"""'
 * csvCell('x;=cmd') // → `"x;'=cmd"`
 * csvCell(12) // → '"12"'
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (typeof value === 'string') {
    text = text.replace(FORMULA_START, "$1$2'");
    // A leading tab or CR is a trigger too for some spreadsheets (OWASP's list).
    if (/^[\t\r]/.test(text)) text = `'${text}`;
  }
  return `"${text.replaceAll('"', '""')}"`;
}

/** Formats rows as the text of one file; `columns` gives the CSV header when there are no rows. */
function formatRows(rows: Array<Record<string, unknown>>, format: ExportRequest['format'], columns: string[]): string {
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const header = `${columns.map(csvCell).join(',')}\r\n`;
  return header + rows.map((row) => `${columns.map((column) => csvCell(row[column])).join(',')}\r\n`).join('');
}

/** Exports as the CLI does: the whole file's text. */
export async function exportTable(db: OpsDatabase, request: ExportRequest): Promise<{ text: string; rows: number }> {
  const rows = await readRows(db, request);
  return { text: formatRows(rows, request.format, await db.columns(request.table)), rows: rows.length };
}
