/**
 * `ingest export`: a table's rows as CSV or JSON Lines, optionally only those created since a date.
 * The newsletter export holds confirmed subscriptions only (a pending signup has not confirmed),
 * the contacts export verified messages only (a message sent without JavaScript waits for its
 * sender's click); the rows left out are counted, so the operator reads why a table looks short.
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

/** What an export leaves out of a table, and why, in the operator's summary. */
const LEFT_OUT_REASON: Record<ExportRequest['table'], string> = {
  newsletter: 'pending signup(s), not confirmed yet (a pending address may not be mailed)',
  contacts: 'unverified message(s), waiting for the sender to confirm their address',
};

const sinceOf = (request: ExportRequest) => (request.since === undefined ? '' : new Date(request.since).toISOString());

/** Reads the rows to export, oldest first. */
async function readRows(db: OpsDatabase, request: ExportRequest): Promise<Array<Record<string, unknown>>> {
  const since = sinceOf(request);
  if (request.table === 'contacts') {
    return db.all(db.kysely.selectFrom('contacts').selectAll().where('created_at', '>=', since).where('verified_at', 'is not', null).orderBy('id'));
  }
  // A signup still waiting for its confirmation is no subscription: it must never reach a mailing list.
  return db.all(db.kysely.selectFrom('newsletter').selectAll().where('created_at', '>=', since).where('status', '=', 'confirmed').orderBy('id'));
}

/** Counts the rows of the same range that the export leaves out. */
async function countLeftOut(db: OpsDatabase, request: ExportRequest): Promise<number> {
  const since = sinceOf(request);
  const [row] =
    request.table === 'contacts'
      ? await db.all(db.kysely.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('created_at', '>=', since).where('verified_at', 'is', null))
      : await db.all(db.kysely.selectFrom('newsletter').select((eb) => eb.fn.countAll<number>().as('n')).where('created_at', '>=', since).where('status', '<>', 'confirmed'));
  return Number(row?.n ?? 0);
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

/** An export's result: the whole file's text, its row count, and what it left out and why. */
export interface ExportResult {
  text: string;
  rows: number;
  leftOut: { rows: number; reason: string };
}

/** Exports as the CLI does. */
export async function exportTable(db: OpsDatabase, request: ExportRequest): Promise<ExportResult> {
  const rows = await readRows(db, request);
  const text = formatRows(rows, request.format, await db.columns(request.table));
  return { text, rows: rows.length, leftOut: { rows: await countLeftOut(db, request), reason: LEFT_OUT_REASON[request.table] } };
}
