/**
 * Stores form submissions in PostgreSQL. Each request commits on its own pooled connection
 * (with `synchronous_commit` on, see `pg-connection.ts`) and resolves only after its commit, so
 * a 201 always names a durable row; concurrent commits share WAL flushes inside PostgreSQL.
 *
 * As on SQLite, the database decides duplicates: `INSERT … ON CONFLICT DO NOTHING RETURNING`
 * returns no row when the unique `email_lower` index (newsletter, any case) or the nonce's
 * primary key (a captcha used once, by any replica) already holds the value. A contact, its
 * outbox row and its nonce are one transaction: a second use of a token, in this replica or
 * another, waits for the first transaction and then stores nothing.
 */
import type { Kysely } from 'kysely';
import { isoAt } from '../../clock.ts';
import { contactRow, newsletterRow, type SubmissionStore } from '../submission-store.ts';
import type { Tables } from '../tables.ts';
import type { PostgresHealth } from './pg-health.ts';

/** The PostgreSQL submission store on `kysely`'s pool; every call goes through `health.guard`. */
export function postgresSubmissionStore(kysely: Kysely<Tables>, health: PostgresHealth): SubmissionStore {
  const claimNonce = (db: Kysely<Tables>, nonce: { value: string; expiresAt: number }, now: number) =>
    db
      .insertInto('captcha_nonces')
      .values({ nonce: nonce.value, expires_at: isoAt(nonce.expiresAt), used_at: isoAt(now) })
      .onConflict((conflict) => conflict.column('nonce').doNothing())
      .returning('nonce')
      .execute();

  // Expired nonces can never verify again: each write that records one drops them, as on SQLite.
  const deleteExpiredNonces = (db: Kysely<Tables>, now: number) => db.deleteFrom('captcha_nonces').where('expires_at', '<', isoAt(now)).execute();

  const store = {
    subscribe: (signup, now, terms) =>
      health.guard(() =>
        kysely.transaction().execute(async (trx) => {
          const row = newsletterRow(signup, now, terms);
          const inserted = await trx
            .insertInto('newsletter')
            .values(row)
            .onConflict((conflict) => conflict.column('email_lower').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (inserted === undefined) return 'duplicate' as const;
          const event = { newsletter_id: inserted.id, lang: row.lang, consent_hash: row.consent_hash ?? null, privacy_version: row.privacy_version, at: row.created_at };
          await trx.insertInto('consent_events').values({ ...event, event: 'subscribed' }).execute();
          if (terms.status === 'pending') {
            await trx
              .insertInto('outbox')
              .values({ kind: 'newsletter_confirm', newsletter_id: inserted.id, status: 'pending', attempts: 0, next_attempt_at: row.created_at, created_at: row.created_at })
              .execute();
          } else {
            await trx.insertInto('consent_events').values({ ...event, event: 'confirmed' }).execute();
          }
          return 'created' as const;
        }),
      ),
    submitContact: (contact, nonce, now) =>
      health.guard(() =>
        kysely.transaction().execute(async (trx) => {
          if ((await claimNonce(trx, nonce, now)).length === 0) return 'captcha_reused' as const;
          const { id } = await trx.insertInto('contacts').values(contactRow(contact, now)).returning('id').executeTakeFirstOrThrow();
          const at = isoAt(now);
          await trx.insertInto('outbox').values({ contact_id: id, status: 'pending', attempts: 0, next_attempt_at: at, created_at: at }).execute();
          await deleteExpiredNonces(trx, now);
          return 'created' as const;
        }),
      ),
    submitUnverifiedContact: (contact, now, expiresAt) =>
      health.guard(() =>
        kysely.transaction().execute(async (trx) => {
          const { id } = await trx.insertInto('contacts').values(contactRow(contact, now, expiresAt)).returning('id').executeTakeFirstOrThrow();
          const at = isoAt(now);
          await trx.insertInto('outbox').values({ kind: 'contact_confirm', contact_id: id, status: 'pending', attempts: 0, next_attempt_at: at, created_at: at }).execute();
        }),
      ),
    spendNonce: (nonce: { value: string; expiresAt: number }, now: number) =>
      health.guard(async () => {
        await kysely.transaction().execute(async (trx) => {
          await claimNonce(trx, nonce, now);
          await deleteExpiredNonces(trx, now);
        });
      }),
    isReady: () => health.ready(),
    // The pool belongs to the backend, which closes it.
    close: async () => {},
  } satisfies Omit<SubmissionStore, 'spendNonce'> & Record<string, unknown>;
  return store;
}
