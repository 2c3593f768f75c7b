/**
 * Visitor text in the sales mail's headers: sent by the real service through a real SMTP peer,
 * then read back from the raw message as a mail client reads it (unfolded, RFC 2047 decoded,
 * quoted display names included, as lenient clients do). What the visitor typed must come out
 * literally, never as a header of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../../ingest/server.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { configFor, contact, eventually, postJson, solvedCaptcha, tempDir } from '../fixtures.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Sends one contact through a fresh service and returns the raw message the SMTP peer received. */
async function sentMail(fields: Record<string, unknown>): Promise<{ raw: string; smtp: SmtpPeer }> {
  const smtp = await smtpPeer();
  cleanups.push(smtp.close);
  const temp = tempDir();
  cleanups.push(temp.remove);
  const running = await startService(
    configFor(temp.dir, { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com', RATE_LIMIT_MAX: '1000' }),
    { pollMs: 20, logStream: { write: () => {} } },
  );
  cleanups.push(running.close);
  const res = await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app), ...fields }));
  expect(res.statusCode).toBe(201);
  await eventually(() => smtp.messages.length === 1);
  return { raw: smtp.messages[0]!, smtp };
}

/** The header block, unfolded, as `name → value` (first occurrence). */
function headersOf(raw: string): Map<string, string> {
  const block = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** Decodes every RFC 2047 encoded-word, wherever it stands (inside quotes too, as lenient clients do). */
function decodeWords(value: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  return value.replace(/(\?=)\s+(?==\?)/g, '$1').replace(word, (_all, charset: string, encoding: string, text: string) => {
    const bytes = encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))), 'latin1');
    return new TextDecoder(charset.toLowerCase().split('*')[0]).decode(bytes);
  });
}

const injection = `=?utf-8?B?${Buffer.from('x\r\nBcc: victim@example.com').toString('base64')}?=`;
const qInjection = '=?iso-8859-1?Q?=0D=0ABcc:_victim2@example.com?=';

describe('visitor text in the sales mail headers', () => {
  it('regression: an encoded-word in a name reaches Subject and Reply-To as literal text, not as a decoded Bcc line', async () => {
    const { raw, smtp } = await sentMail({ firstName: injection, lastName: 'Smith', email: 'eve@example.com', companyName: qInjection });
    const headers = headersOf(raw);
    const subject = headers.get('subject')!;
    const replyTo = headers.get('reply-to')!;
    // What the visitor typed never stands in the headers as it is, so no client decodes it.
    for (const value of [subject, replyTo]) {
      expect(value).not.toContain(injection);
      expect(value).not.toContain(qInjection);
    }
    // Decoding yields exactly the visitor's text, with no line break a client could show as a header.
    expect(decodeWords(subject)).toBe(`Question from ${injection} Smith (${qInjection})`);
    expect(decodeWords(replyTo)).not.toMatch(/[\r\n]|Bcc/i);
    expect(decodeWords(replyTo)).toMatch(/^<?eve@example\.com>?$/);
    expect(smtp.recipients).toEqual([['sales@example.com']]);
  });

  it('keeps names that hold no encoded-word readable: Subject decodes to the text, Reply-To carries the name', async () => {
    const { raw } = await sentMail({ firstName: 'Zoë', lastName: "O'Neil-Smith", email: 'zoe@example.org', companyName: 'Fish & Chips "Ltd"' });
    const headers = headersOf(raw);
    expect(decodeWords(headers.get('subject')!)).toBe(`Question from Zoë O'Neil-Smith (Fish & Chips "Ltd")`);
    expect(decodeWords(headers.get('reply-to')!)).toBe(`Zoë O'Neil-Smith <zoe@example.org>`);
  });

  it('writes a long encoded subject as encoded-words of at most 75 characters, each decoding whole', async () => {
    const firstName = `=?${'é'.repeat(60)}`;
    const { raw } = await sentMail({ firstName, lastName: '😀'.repeat(20), companyName: null });
    const subject = headersOf(raw).get('subject')!;
    for (const word of subject.match(/=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=/g) ?? []) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeWords(subject)).toBe(`Question from ${firstName} ${'😀'.repeat(20)}`);
    expect(raw.split(/\r?\n\r?\n/)[0]!.split(/\r?\n/).every((line) => line.length <= 78)).toBe(true);
  });
});
