/**
 * Reads a raw message as a mail program shows it, for tests that check what arrived at the SMTP
 * peer: a header with its folds joined and its RFC 2047 encoded-words decoded, and a part's body
 * with its quoted-printable encoding undone.
 */

/** Undoes one encoded-word's B or Q encoding: `=?UTF-8?Q?Demo_request?=` → `'Demo request'`. */
function decodeWord(charset: string, encoding: string, text: string): string {
  const bytes =
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  return new TextDecoder(charset).decode(bytes);
}

/** The decoded value of header `name` (the first one), or undefined. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    // Whitespace between two encoded-words is not part of the text (RFC 2047, 6.2).
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, charset: string, encoding: string, text: string) => decodeWord(charset, encoding, text));
}

/** The body of the first part of type `type` (`text/plain`, `text/html`), decoded. */
export function partOf(raw: string, type: string): string {
  const start = raw.search(new RegExp(`^Content-Type: ${type.replace('/', '\\/')}`, 'mi'));
  if (start < 0) throw new Error(`no ${type} part`);
  const rest = raw.slice(start);
  const body = rest.slice(rest.search(/\r?\n\r?\n/)).replace(/^\s+/, '');
  const boundary = /boundary="([^"]+)"/.exec(raw)?.[1];
  const end = boundary === undefined ? -1 : body.indexOf(`--${boundary}`);
  const encoded = end < 0 ? body : body.slice(0, end);
  const bytes = encoded.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n').trimEnd();
}
