/**
 * Stores form submissions in PostgreSQL, and resolves each call only after the commit that holds
 * its rows (with `synchronous_commit` on, see `pg-connection.ts`), so a 201 always names a
 * durable row.
 *
 * Newsletter signups go through group commit, as on SQLite: concurrent signups share one
 * statement, so one commit and one WAL flush (`pg-signup-batch.ts`). If a batch fails for a
 * reason other than the database being unavailable, each of its signups is tried again on its
 * own, so a bad row fails only its own request. Contacts are rare and commit one per request.
 *
 * As on SQLite, the database decides duplicates: `INSERT … ON CONFLICT DO NOTHING RETURNING`
 * returns no row when the unique `email_lower` index (newsletter, any case) or the nonce's
 * primary key (a captcha used once, by any replica) already holds the value, and the
 * per-recipient cap (`mail-caps.ts`, one conditional upsert) decides whether a mail to a
 * visitor-typed address may go out, for every replica at once. A contact, its
 * outbox row and its nonce are one transaction: a second use of a token, in this replica or
 * another, waits for the first transaction and then stores nothing. A refused answer spends its
 * nonce the same way (`spendNonce`), so no replica accepts that token afterwards.
 */
import type { Kysely } from 'kysely';
import { isoAt } from '../../clock.ts';
import { DEFAULT_GROUP_COMMIT, GroupCommit, type GroupCommitOptions, type JobResult } from '../group-commit.ts';
import { capValues, chargeMailQuery } from '../mail-caps.ts';
import { outboxRow } from '../outbox/outbox-row.ts';
import { contactRow, type SubmissionStore } from '../submission-store.ts';
import type { Tables } from '../tables.ts';
import { DatabaseUnavailableError, type PostgresDatabase } from './pg-connection.ts';
import type { PostgresHealth } from './pg-health.ts';
import { type SignupJob, subscribeBatch } from './pg-signup-batch.ts';
import { NO_WEBHOOKS, type WebhookRouting } from '../webhooks/webhook-row.ts';

type SubscribeOutcome = Awaited<ReturnType<SubmissionStore['subscribe']>>;

/** The PostgreSQL submission store on `db`'s pool; every call goes through `health.guard`. */
export function postgresSubmissionStore(
  db: Pick<PostgresDatabase, 'pool' | 'kysely'>,
  health: PostgresHealth,
  options: GroupCommitOptions = DEFAULT_GROUP_COMMIT,
  webhooks: WebhookRouting = NO_WEBHOOKS,
): SubmissionStore & { groupCommit: GroupCommit<SignupJob, SubscribeOutcome> } {
  const { kysely } = db;
  const claimNonce = (trx: Kysely<Tables>, nonce: { value: string; expiresAt: number }, now: number) =>
    trx
      .insertInto('captcha_nonces')
      .values({ nonce: nonce.value, expires_at: isoAt(nonce.expiresAt), used_at: isoAt(now) })
      .onConflict((conflict) => conflict.column('nonce').doNothing())
      .returning('nonce')
      .execute();

  // Expired nonces can never verify again: each write that records one drops them, as on SQLite.
  const deleteExpiredNonces = (trx: Kysely<Tables>, now: number) => trx.deleteFrom('captcha_nonces').where('expires_at', '<', isoAt(now)).execute();

  const storeAlone = (job: SignupJob) => health.guard(async () => (await subscribeBatch(db, [job], webhooks))[0]!);
  const storeBatch = async (jobs: SignupJob[]): Promise<Array<JobResult<SubscribeOutcome>>> => {
    try {
      const outcomes = await health.guard(() => subscribeBatch(db, jobs, webhooks));
      return outcomes.map((value) => ({ ok: true, value }));
    } catch (error) {
      // An outage fails the whole batch (503 for each); anything else is retried one by one.
      if (error instanceof DatabaseUnavailableError || jobs.length === 1) throw error;
      return Promise.all(jobs.map((job) => storeAlone(job).then((value) => ({ ok: true as const, value }), (failure: unknown) => ({ ok: false as const, error: failure }))));
    }
  };
  const signups = new GroupCommit(storeBatch, options);

  const store = {
    subscribe: (signup, now, terms) => signups.submit({ signup, now, terms }),
    submitContact: (contact, nonce, now) =>
      health.guard(() =>
        kysely.transaction().execute(async (trx) => {
          if ((await claimNonce(trx, nonce, now)).length === 0) return 'captcha_reused' as const;
          // Its contact.received event waits on the row for the webhook worker (`webhooks/waiting-contacts.ts`).
          const { id } = await trx.insertInto('contacts').values(contactRow(contact, now, null, webhooks)).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('outbox').values({ ...outboxRow('sales', now), contact_id: id }).execute();
          await deleteExpiredNonces(trx, now);
          return 'created' as const;
        }),
      ),
    submitUnverifiedContact: (contact, now, expiresAt) =>
      health.guard(() =>
        kysely.transaction().execute(async (trx) => {
          // The cap first: over it, nothing is stored (see `SubmissionStore`).
          if ((await chargeMailQuery(trx, capValues(contact.email, 'contact', now)).execute()).length === 0) return 'capped' as const;
          const { id } = await trx.insertInto('contacts').values(contactRow(contact, now, expiresAt)).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('outbox').values({ ...outboxRow('contact_confirm', now), contact_id: id }).execute();
          return 'queued' as const;
        }),
      ),
    spendNonce: (nonce, now) =>
      health.guard(async () => {
        await kysely.transaction().execute(async (trx) => {
          await claimNonce(trx, nonce, now);
          await deleteExpiredNonces(trx, now);
        });
      }),
    isReady: () => health.ready(),
    groupCommit: signups,
    // Commits the signups still queued; the pool belongs to the backend, which closes it after.
    close: () => signups.close(),
  } satisfies SubmissionStore & { groupCommit: unknown };
  return store;
}
