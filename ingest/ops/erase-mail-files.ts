/**
 * The mail-file half of `ingest erase` and `ingest export`: the file mail sink (`$DATA_DIR/mail/`,
 * no `SMTP_URL`) keeps every mail the service sends as an `.eml` file. A file belongs to the one
 * visitor the mail is about, read from its headers by the visitor's role in it:
 *
 * | mail | From | To | Reply-To | the visitor |
 * |---|---|---|---|---|
 * | sales mail (a contact) | MAIL_FROM | SALES_EMAIL | the visitor | Reply-To |
 * | confirmation and other mails to a visitor | MAIL_FROM | the visitor | — | To (and Cc) |
 *
 * So a file matches an address only when that address is the mail's visitor, compared whole and
 * in any case, never as a substring of the file: erasing `sales@…` or `MAIL_FROM` removes no
 * visitor's mail, and an address a visitor typed into a message or a display name counts for
 * nobody (as the database's rows are matched by their address column, not their text). Files
 * still being written (`.eml.tmp`) count too.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import type { IngestConfig } from '../config.ts';
import type { PersonAddress } from './person-address.ts';

/** The folder of the file mail sink, `$DATA_DIR/mail/` (also with `SMTP_URL` set: files from before it was set stay there). */
export function mailFolderOf(config: IngestConfig): string {
  return config.mail.kind === 'file' ? config.mail.dir : join(config.dataDir, 'mail');
}

/**
 * The header fields of a message, by lower-case name, unfolded (each field's values in order):
 * `headerFields('To: a@x\nReply-To: "B"\n <b@x>\n\nbody')` → `{ to: ['a@x'], 'reply-to': ['"B" <b@x>'] }`.
 */
function headerFields(message: string): Record<string, string[]> {
  const end = message.search(/\r?\n\r?\n/);
  const head = (end < 0 ? message : message.slice(0, end)).replace(/\r?\n(?=[ \t])/g, '');
  const fields: Record<string, string[]> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    (fields[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  return fields;
}

/**
 * The addresses of the visitor a message is about, lower-cased: its `Reply-To` when it has one
 * (a sales mail, sent to sales), else its `To` and `Cc` (a mail sent to the visitor). `From` is
 * always the service.
 *
 * @example visitorAddresses('From: forms@x.com\nTo: sales@x.com\nReply-To: "Ana" <Ana@Example.com>\n\n…') // → ['ana@example.com']
 */
export function visitorAddresses(message: string): string[] {
  const fields = headerFields(message);
  const role = fields['reply-to'] !== undefined ? fields['reply-to'] : [...(fields.to ?? []), ...(fields.cc ?? [])];
  return role.flatMap((value) => addressparser(value, { flatten: true }).map((entry) => entry.address.toLowerCase())).filter((address) => address !== '');
}

/** Deletes the mail files in `dir` about `address` (its visitor) and returns their names; a missing `dir` holds none. */
export function eraseMailFiles(dir: string, address: PersonAddress): string[] {
  const found = mailFilesAbout(dir, address);
  for (const name of found) rmSync(join(dir, name), { force: true });
  return found;
}

/** The names of the mail files in `dir` whose visitor is `address`, in any case (for an export); deletes nothing. */
export function mailFilesAbout(dir: string, address: PersonAddress): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml') || name.endsWith('.eml.tmp'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const wanted = address.toLowerCase();
  // latin1 maps every byte to one character, so the ASCII header lines read the same whatever the body's encoding.
  return names.sort().filter((name) => visitorAddresses(readFileSync(join(dir, name), 'latin1')).includes(wanted));
}
