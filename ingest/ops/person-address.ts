/**
 * The address the ops CLI acts on (`ingest export --email`, `ingest erase --email`): one address
 * that passes the forms' own email rule (`emailAddressSchema`), normalised as the forms store it.
 * Anything else — empty, blank, `localhost`, a bare domain, `.`, a list — stops the command before
 * the database or the mail folder is read, so no value can match everyone:
 *
 *   personAddress(' Ana@Example.COM ') → 'Ana@example.com'
 *   personAddress('')                  → throws OperatorError option_invalid: '--email "" is not one email address …' (exit 2)
 *
 * The erase and export functions take a `PersonAddress`, which only this function makes.
 */
import * as z from 'zod/mini';
import { emailAddressSchema } from '../contract/schemas.ts';
import { OperatorError } from '../operator-errors.ts';

/** A normalised address that passed `personAddress`. */
export type PersonAddress = string & { readonly __personAddress: true };

/** The `--email` value `value` as a `PersonAddress`, or an `OperatorError` (`option_invalid`, exit 2) whose detail is one line. */
export function personAddress(value: string): PersonAddress {
  const result = z.safeParse(emailAddressSchema, value);
  if (result.success) return result.data as PersonAddress;
  throw new OperatorError('option_invalid', `--email ${JSON.stringify(value)} is not one email address such as ana@example.com; give the exact address of one person`);
}
