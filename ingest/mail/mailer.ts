/**
 * Sends rendered emails: over SMTP when `SMTP_URL` is set, otherwise into a folder of `.eml`
 * files (`$DATA_DIR/mail/`), so a fresh checkout delivers sales mail with no configuration.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { IngestConfig } from '../config.ts';
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

/** Creates the mailer the configuration asks for. */
export function createMailer(mail: IngestConfig['mail']): Mailer {
  return mail.kind === 'smtp' ? smtpMailer(mail.url) : fileMailer(mail.dir);
}

/** Sends through an SMTP server given as a URL, e.g. `smtp://user:pass@mail.example.com:587`; `options` override the timeouts. */
export function smtpMailer(url: string, options: Record<string, unknown> = {}): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS, ...options });
  return {
    send: async (message, signal) => {
      // nodemailer 10 closes the connection of an aborted send; its types predate `signal`.
      const withSignal: SendMailOptions & { signal?: AbortSignal } = signal === undefined ? message : { ...message, signal };
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
      const info = await transport.sendMail(message);
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
