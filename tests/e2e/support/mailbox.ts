/** The mails the stack's SMTP peer accepted, as `N.eml` files in the state's `mailDir` (read by `parseMail`). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { type Mail, parseMail } from '../../helpers/mail-message.ts';
import { state } from './fixtures.ts';

export type { Mail };

/** The mails received so far whose `To:` is `address`, oldest first. */
export function mailsTo(address: string): Mail[] {
  const dir = state().mailDir;
  return readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
    .map((file) => parseMail(readFileSync(join(dir, file)), file))
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** Waits until a mail to `address` has arrived and returns the first one. */
export async function firstMailTo(address: string): Promise<Mail> {
  await expect.poll(() => mailsTo(address).length, { message: `a mail to ${address}`, timeout: 20_000 }).toBeGreaterThan(0);
  return mailsTo(address)[0]!;
}
