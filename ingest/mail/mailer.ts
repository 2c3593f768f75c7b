/**
 * Sends rendered emails: over SMTP when `SMTP_URL` is set, otherwise into a folder of `.eml`
 * files (`$DATA_DIR/mail/`), so a fresh checkout delivers sales mail with no configuration.
 *
 * Over SMTP the mails go through a pool of reused connections (nodemailer's pool: one connection
 * by default, up to 100 mails each before it is replaced), so a backlog is not paid for with a
 * TCP and TLS handshake per mail; with DKIM configured each mail is signed on its way out.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { IngestConfig } from '../config.ts';
import type { DkimSigning } from './dkim-key.ts';
/** One message in nodemailer's shape: the sales mail about a contact, or a mail to a subscriber. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row, so a second send after a crash shows as one message, and unique across databases (`message-id.ts`). */
  messageId: string;
  date: Date;
  /** Extra header lines, such as `List-Unsubscribe`. */
  headers?: Record<string, string>;
}

/** Something that delivers one message or throws; an aborted `signal` cancels the send (SMTP only). */
export interface Mailer {
  send(message: OutgoingMail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Bounded waits, each shorter than the service's 15 s shutdown grace, so a stuck SMTP server
 * fails a send (retried later) instead of holding it: connecting and the greeting together
 * (`greetingTimeout` is cut short by what is left of `connectionTimeout`), and any silence on
 * the socket after that, the answer to DATA included. An abandoned connection is destroyed if
 * the server has not closed it 1 s after ours.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000, socketCloseTimeout: 1_000 };

/**
 * Headers on every mail the service sends, whatever its kind: written by a program, not a person
 * (RFC 3834), so out-of-office and other automatic replies are not sent back to it.
 */
const SERVICE_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated' };

/** `message` with the headers every mail of the service carries (its own headers win); the previews use it too. */
export function withServiceHeaders(message: OutgoingMail): OutgoingMail {
  return { ...message, headers: { ...SERVICE_HEADERS, ...message.headers } };
}

/**
 * The headers a DKIM signature covers when the mail has them: nodemailer's list of RFC 6376
 * §5.4.1 less the ones the service never writes, plus `List-Unsubscribe-Post` (RFC 8058 §4: both
 * unsubscribe headers must be signed for one-click unsubscribe) and `Auto-Submitted`.
 */
const SIGNED_HEADERS = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc', 'MIME-Version', 'Content-Type', 'Content-Transfer-Encoding',
  'List-Id', 'List-Unsubscribe', 'List-Unsubscribe-Post', 'Auto-Submitted',
].join(':');

/**
 * How many mails the outbox hands the SMTP pool per connection at once: one on the wire, the
 * others queued behind it, so the connection never waits for the database to claim the next row
 * or record the last one.
 */
export const SENDS_PER_CONNECTION = 32;

/**
 * Creates the mailer the configuration asks for; `dkim` (SMTP only) signs every mail. Where TLS is
 * `required`, nodemailer sends STARTTLS before anything else and ends the session when the relay
 * refuses it (an `ETLS` error at `STARTTLS`: the credentials and the mail never leave in clear text).
 */
export function createMailer(mail: IngestConfig['mail'], dkim: DkimSigning | null = null): Mailer {
  if (mail.kind === 'file') return fileMailer(mail.dir);
  return smtpMailer(mail.url, { maxConnections: mail.maxConnections, requireTLS: mail.tls === 'required' }, dkim);
}

/**
 * Sends through an SMTP server given as a URL, e.g. `smtp://user:pass@mail.example.com:587`, over a
 * pool of reused connections; `options` override the pool's size and the timeouts.
 */
export function smtpMailer(url: string, options: Record<string, unknown> = {}, dkim: DkimSigning | null = null): Mailer {
  const signing = dkim && { dkim: { domainName: dkim.domain, keySelector: dkim.selector, privateKey: dkim.privateKey, headerFieldNames: SIGNED_HEADERS } };
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: 1, ...SMTP_TIMEOUTS, ...signing, ...options });
  return {
    send: async (message, signal) => {
      // nodemailer 10's pool drops an aborted mail from its queue, or closes the connection sending it; its types predate `signal`.
      const withSignal: SendMailOptions & { signal?: AbortSignal } = { ...withServiceHeaders(message), ...(signal === undefined ? {} : { signal }) };
      await transport.sendMail(withSignal);
    },
    close: () => transport.close(),
  };
}

/** Writes each message as `<time>-<message id>.eml` into `dir`, atomically (write, then rename). */
function fileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (message) => {
      const info = await transport.sendMail(withServiceHeaders(message));
      mkdirSync(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const id = message.messageId.replace(/[<>]/g, '').replace(/[^\w.-]+/g, '_');
      const file = join(dir, `${stamp}-${id}.eml`);
      writeFileSync(`${file}.tmp`, info.message as Buffer, { flush: true });
      renameSync(`${file}.tmp`, file);
    },
    close: () => transport.close(),
  };
}
