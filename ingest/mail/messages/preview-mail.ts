/**
 * Sample emails as files a person can open, for `ingest preview-mail --out DIR`: each sample of
 * `preview-samples.ts` (every kind of mail the service sends, in every language) is written as
 * `NAME.eml` (the whole message exactly as the service would send it; mail clients open it) and
 * `NAME.html` (its HTML part, for a browser), with the operator's `MAIL_FROM`, `SALES_EMAIL`,
 * `SALES_TIMEZONE`, site URLs and texts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { withServiceHeaders } from '../mailer.ts';
import { mailSamples, type PreviewSettings } from './preview-samples.ts';

/** Writes every sample into `dir` (created if missing) as `.eml` and `.html`; returns the file paths written. */
export async function writeMailPreviews(dir: string, settings: PreviewSettings): Promise<string[]> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  try {
    for (const { name, mail } of mailSamples(settings)) {
      const info = await transport.sendMail(withServiceHeaders(mail));
      const eml = join(dir, `${name}.eml`);
      const html = join(dir, `${name}.html`);
      writeFileSync(eml, info.message as Buffer);
      writeFileSync(html, mail.html);
      written.push(eml, html);
    }
  } finally {
    transport.close();
  }
  return written;
}
