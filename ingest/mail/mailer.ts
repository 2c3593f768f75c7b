/**
 * Sends rendered emails: over SMTP when `SMTP_URL` is set, otherwise into a folder of `.eml`
 * files (`$DATA_DIR/mail/`), so a fresh checkout delivers sales mail with no configuration.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { IngestConfig } from '../config.ts';
import type { ContactEmail } from './contact-email.ts';

/** Something that delivers one message or throws. */
export interface Mailer {
  send(message: ContactEmail): Promise<void>;
  close(): void;
}

// Bounded waits, so a stuck server cannot hold a send (and a graceful shutdown) for minutes.
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

/** Creates the mailer the configuration asks for. */
export function createMailer(mail: IngestConfig['mail']): Mailer {
  return mail.kind === 'smtp' ? smtpMailer(mail.url) : fileMailer(mail.dir);
}

/** Sends through an SMTP server given as a URL, e.g. `smtp://user:pass@mail.example.com:587`. */
export function smtpMailer(url: string, options: Record<string, unknown> = {}): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS, ...options });
  return {
    send: async (message) => {
      await transport.sendMail(message);
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
