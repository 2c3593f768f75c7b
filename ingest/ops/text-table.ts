/**
 * The fixed-width tables the operator commands print (`ingest outbox failed`), one row a line, the
 * last column unpadded. Cells may hold what a remote server said (an SMTP answer): control
 * characters are shown escaped, so no escape sequence reaches the operator's terminal.
 *
 *   textTable(['id', 'why'], [['7', 'mailbox full'], ['12', 'no such user']])
 *   → 'id  why\n7   mailbox full\n12  no such user'
 */

/** `text` with every control character (C0, DEL, C1) written as `\xNN`, and line breaks as `\n`. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, (char) => (char === '\n' ? '\\n' : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** `rows` under `header`, each column as wide as its widest cell, two spaces apart. */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const lines = [header, ...rows].map((cells) => cells.map(printable));
  const last = header.length - 1;
  const widths = header.map((_, i) => Math.max(...lines.map((cells) => (i === last ? 0 : (cells[i] ?? '').length))));
  return lines.map((cells) => cells.map((cell, i) => (i === last ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
