/**
 * The mail-file half of `ingest erase`: the file mail sink (`$DATA_DIR/mail/`, no `SMTP_URL`)
 * keeps every sales email as an `.eml` file, each holding the visitor's name, address and message.
 * Erasure removes the files that mention the address: in `Reply-To`, `To`, `From` or the body,
 * in any case. Files still being written (`.eml.tmp`) count too.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IngestConfig } from '../config.ts';

/** The folder of the file mail sink, `$DATA_DIR/mail/` (also with `SMTP_URL` set: files from before it was set stay there). */
export function mailFolderOf(config: IngestConfig): string {
  return config.mail.kind === 'file' ? config.mail.dir : join(config.dataDir, 'mail');
}

/**
 * True when `text` holds `address` as a whole address, in any case:
 * `mentionsAddress('Reply-To: Ana <ANA@example.com>', 'ana@example.com')` → true, while
 * `'banana@example.com'` or `'ana@example.com.evil'` do not count.
 */
export function mentionsAddress(text: string, address: string): boolean {
  const escaped = address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.!#$%&'*+/=?^\`{|}~-])${escaped}(?![\\w.-]*\\w)`, 'i').test(text);
}

/** Deletes the mail files in `dir` that mention `address` and returns their names; a missing `dir` holds none. */
export function eraseMailFiles(dir: string, address: string): string[] {
  const found = mailFilesMentioning(dir, address);
  for (const name of found) rmSync(join(dir, name), { force: true });
  return found;
}

/** The names of the mail files in `dir` that mention `address` (for an export); deletes nothing. */
export function mailFilesMentioning(dir: string, address: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml') || name.endsWith('.eml.tmp'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const file = join(dir, name);
    // latin1 maps every byte to one character, so any encoding of the rest leaves the ASCII address intact.
    if (!mentionsAddress(readFileSync(file, 'latin1'), address)) continue;
    removed.push(name);
  }
  return removed;
}
