/**
 * Text from outside (a receiver's answer, a network error, a row an older version stored) made
 * safe to store, log and print on an operator's terminal: terminal escape sequences (CSI, OSC and
 * the rest) and every other control or invisible formatting character are removed, runs of white
 * space become one space, and the result is cut to `maxLength` characters.
 *
 *   printable('HTTP 503\u001b]0;pwned\u0007\u001b[2J ok\r\n') → 'HTTP 503 ok'
 */

// ESC-introduced sequences: CSI (ESC [ … final byte), OSC/DCS/APC/PM/SOS strings (ending in BEL or
// ESC \), and two-byte escapes; then the 8-bit C1 forms of CSI and OSC.
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*[\u0007\u009c]?/g;

// What is left of control characters (C0, DEL, C1) and the invisible ones that reorder or hide
// text (bidirectional controls, zero-width characters, the byte order mark).
const CONTROL_OR_INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `text` without escape sequences or control characters, its white space collapsed, at most `maxLength` characters. */
export function printable(text: string, maxLength = 200): string {
  const clean = text.replace(ESCAPE_SEQUENCES, '').replace(/[\t\n]/g, ' ').replace(CONTROL_OR_INVISIBLE, '').replace(/\s+/g, ' ').trim();
  return clean.length > maxLength ? `${clean.slice(0, maxLength - 1)}…` : clean;
}
