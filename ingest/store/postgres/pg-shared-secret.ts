/**
 * Secrets every replica must hold the same, kept in the `settings` table: the first replica to
 * start creates the value, every later one (and every restart) reads it. No manual step, and no
 * race: the insert does nothing when a value exists, then everyone reads the one that won.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isoAt } from '../../clock.ts';
import type { Tables } from '../tables.ts';

/** The setting `name`, created as 32 random bytes in hex if no replica has created it yet. */
export async function sharedSecret(kysely: Kysely<Tables>, name: string, now: number): Promise<string> {
  await kysely
    .insertInto('settings')
    .values({ name, value: randomBytes(32).toString('hex'), created_at: isoAt(now) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await kysely.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
