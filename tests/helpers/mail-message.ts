/**
 * A mail as the SMTP peer received it, read as a mail program reads it: folded header lines
 * joined, RFC 2047 encoded words decoded, each text part's quoted-printable or base64 decoded into
 * bytes and then read in its charset. The browser tests read their stack's mails with it, the
 * concurrency suite the links in the mails its replicas send.
 */

/** One received mail: its decoded headers and its text and HTML bodies. */
export interface Mail {
  /** The `N.eml` file it was handed over as ('' when it was not a file). */
  file: string;
  /** Header values by lower-case name, decoded, in the order they appear. */
  headers: ReadonlyMap<string, readonly string[]>;
  /** The first value of a header (any case), decoded. */
  header(name: string): string | undefined;
  /** The addresses of the `To:` header, lower-cased. */
  to: readonly string[];
  subject: string;
  /** The `text/plain` body ('' when none). */
  text: string;
  /** The `text/html` body ('' when none). */
  html: string;
}

interface Part {
  headers: Map<string, string[]>;
  body: string;
}

const quotedPrintableBytes = (text: string) =>
  Buffer.from(text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');

/**
 * A header value with its encoded words decoded; whitespace between two encoded words is dropped
 * and their bytes joined before decoding, so a character split across two of them survives.
 *
 * @example decodeHeader('=?UTF-8?Q?Bitte_best=C3=A4tigen?= Sie') // 'Bitte bestätigen Sie'
 */
function decodeHeader(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const run = /(?:=\?[^?]+\?[BbQq]\?[^?]*\?=)(?:\s*=\?[^?]+\?[BbQq]\?[^?]*\?=)*/g;
  return value.replace(run, (words) => {
    let charset = 'utf-8';
    const bytes: Buffer[] = [];
    for (const [, set, encoding, data] of words.matchAll(word)) {
      charset = set!.replace(/\*.*$/, '');
      bytes.push(encoding!.toUpperCase() === 'B' ? Buffer.from(data!, 'base64') : quotedPrintableBytes(data!.replace(/_/g, ' ')));
    }
    return new TextDecoder(charset).decode(Buffer.concat(bytes));
  });
}

/** Splits a raw entity (read as latin1, one character per byte) into its unfolded headers and its raw body. */
function splitEntity(raw: string): Part {
  const end = /\r?\n\r?\n/.exec(raw);
  const head = end === null ? raw : raw.slice(0, end.index);
  const body = end === null ? '' : raw.slice(end.index + end[0].length);
  const headers = new Map<string, string[]>();
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { headers, body };
}

/** A parameter of a structured header: `param('text/plain; charset=utf-8', 'charset')` → `utf-8`. */
function param(value: string | undefined, name: string): string | undefined {
  const found = new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(value ?? '');
  return found?.[1];
}

/** The leaf parts of an entity (multiparts opened recursively) with their bodies decoded to text. */
function leafParts(entity: Part): Part[] {
  const type = entity.headers.get('content-type')?.[0] ?? 'text/plain';
  const boundary = param(type, 'boundary');
  if (/^multipart\//i.test(type) && boundary !== undefined) {
    const sections: string[][] = [];
    // Lines before the first delimiter are the preamble; the closing delimiter ends the parts.
    for (const line of entity.body.split(/\r?\n/)) {
      const trimmed = line.trimEnd();
      if (trimmed === `--${boundary}--`) break;
      if (trimmed === `--${boundary}`) sections.push([]);
      else sections.at(-1)?.push(line);
    }
    return sections.flatMap((lines) => leafParts(splitEntity(lines.join('\r\n'))));
  }
  const encoding = (entity.headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'quoted-printable'
      ? quotedPrintableBytes(entity.body)
      : encoding === 'base64'
        ? Buffer.from(entity.body.replace(/\s+/g, ''), 'base64')
        : Buffer.from(entity.body, 'latin1');
  return [{ headers: entity.headers, body: new TextDecoder(param(type, 'charset') ?? 'utf-8').decode(bytes) }];
}

/** Parses one raw message as the SMTP peer received it: `parseMail(readFileSync('1.eml'), '1.eml').subject`. */
export function parseMail(raw: Buffer, file = ''): Mail {
  const message = splitEntity(raw.toString('latin1'));
  const headers = new Map([...message.headers].map(([name, values]) => [name, values.map(decodeHeader)] as const));
  const parts = leafParts(message);
  const body = (type: string) => parts.find((p) => (p.headers.get('content-type')?.[0] ?? 'text/plain').toLowerCase().startsWith(type))?.body ?? '';
  const header = (name: string) => headers.get(name.toLowerCase())?.[0];
  const to = (header('to') ?? '').split(',').map((address) => (/<([^>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase());
  return { file, headers, header, to, subject: header('subject') ?? '', text: body('text/plain'), html: body('text/html') };
}
