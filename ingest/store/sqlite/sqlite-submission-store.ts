/**
 * Stores form submissions durably: newsletter signups, and contacts together with their outbox
 * row and their captcha nonce, each through group commit (on the writer's connection) so a request is
 * answered only after the commit that holds its row.
 *
 * The decisions are made by the database, not by a check before the insert: `INSERT … ON
 * CONFLICT DO NOTHING RETURNING` returns no row when the unique email index (newsletter) or the
 * nonce's primary key (captcha replay) already holds the value, so two concurrent requests can
 * never both win, and a duplicate fails only its own request, never the batch. A mail to a
 * visitor-typed address is counted by the per-recipient cap's conditional upsert
 * (`mail-caps.ts`) as a step of the same job: no row back, and the job stops before it stores
 * anything (a new signup first checks that its address is new, so a duplicate is not counted).
 *
 * A row is acknowledged only if it is in the database file the service will open next time: the
 * files are checked before a batch goes to the writer and again after its commit, and a batch
 * written while the file was removed or replaced fails with `SQLITE_READONLY_DBMOVED` (503).
 * Storage failures (write errors, failed checkpoints, those files) make `isReady()` false.
 */
import { type Compilable, type Kysely, sql } from 'kysely';
import { isoAt } from '../../clock.ts';
import { GroupCommit, type GroupCommitOptions } from '../group-commit.ts';
import { schemaIsCurrent } from '../migrations.ts';
import type { SqliteDatabase } from './connection.ts';
import { databaseFilesProblem, recordDatabaseFiles } from './file-identity.ts';
import { StorageHealth } from '../storage-health.ts';
import { isStorageFailure } from '../storage-errors.ts';
import { type StorageLog, stderrStorageLog } from '../storage-log.ts';
import { type ErrorDetail, startSqliteWriter, type WriteStep, WriterError, type WriterHealth } from './writer.ts';
import { outboxRow } from '../outbox/outbox-row.ts';
import { capValues, chargeMailQuery } from '../mail-caps.ts';
import { contactRow, newsletterRow, type SubmissionStore } from '../submission-store.ts';
import type { Tables } from '../tables.ts';
import { withSequence } from '../../contract/webhook-events.ts';
import { nextSequenceQuery, supersedeQuery } from '../webhooks/queue-events.ts';
import { deliveryRows, newsletterConfirmed, NO_WEBHOOKS, type WebhookRouting } from '../webhooks/webhook-row.ts';

// Prepared statements, built once with kysely. Each value in the template is its own column
// name, so the compiled parameter list says which value binds to each placeholder.
interface Prepared {
  sql: string;
  bind: readonly string[];
}

function prepare(query: Compilable<unknown>): Prepared {
  const compiled = query.compile();
  return { sql: compiled.sql, bind: compiled.parameters.map(String) };
}

const nameTemplate = <K extends string>(...columns: K[]) => Object.fromEntries(columns.map((c) => [c, c])) as Record<K, never>;

function statements(kysely: Kysely<Tables>) {
  return {
    insertSignup: prepare(
      kysely
        .insertInto('newsletter')
        .values(
          nameTemplate(
            'name', 'email', 'email_lower', 'privacy_consent', 'marketing_consent', 'lang', 'privacy_version', 'consent_at', 'created_at',
            'status', 'confirmed_at', 'consent_hash', 'expires_at', 'confirm_mails', 'confirm_mail_day', 'last_confirm_mail_at',
          ),
        )
        .onConflict((conflict) => conflict.column('email_lower').doNothing())
        .returning('id'),
    ),
    // A row only while the address is not stored yet: a duplicate stops its job before the cap counts a mail.
    addressIsNew: prepare(
      kysely
        .selectNoFrom((eb) => eb.lit(1).as('new'))
        .where((eb) => eb.not(eb.exists(kysely.selectFrom('newsletter').select('id').where('email_lower', '=', 'email_lower' as never)))),
    ),
    // The per-recipient cap (mail-caps.ts): a row only while it allows one more mail, counted.
    chargeMailCap: prepare(
      chargeMailQuery(kysely, nameTemplate('mailbox', 'stream', 'day', 'last_mail_at', 'cutoff')),
    ),
    // The subscription just inserted, found by its address (last_insert_rowid() moves with each insert).
    insertConfirmMail: prepare(
      kysely.insertInto('outbox').values({
        ...nameTemplate('kind', 'status', 'attempts', 'next_attempt_at', 'created_at', 'message_key'),
        newsletter_id: kysely.selectFrom('newsletter').select('id').where('email_lower', '=', 'email_lower' as never),
      }),
    ),
    insertConsentEvent: prepare(
      kysely.insertInto('consent_events').values({
        ...nameTemplate('event', 'lang', 'consent_hash', 'privacy_version', 'at'),
        newsletter_id: kysely.selectFrom('newsletter').select('id').where('email_lower', '=', 'email_lower' as never),
      }),
    ),
    claimNonce: prepare(
      kysely
        .insertInto('captcha_nonces')
        .values(nameTemplate('nonce', 'expires_at', 'used_at'))
        .onConflict((conflict) => conflict.column('nonce').doNothing())
        .returning('nonce'),
    ),
    insertContact: prepare(
      kysely
        .insertInto('contacts')
        .values(
          nameTemplate(
            'first_name', 'last_name', 'email', 'email_lower', 'phone', 'company_name', 'country', 'message', 'lang', 'created_at', 'intent', 'source_page',
            'verified_at', 'expires_at', 'webhook_waiting',
          ),
        ),
    ),
    // Runs right after insertContact in the same savepoint, so last_insert_rowid() is that contact.
    insertOutbox: prepare(
      kysely
        .insertInto('outbox')
        .values({ ...nameTemplate('kind', 'status', 'attempts', 'next_attempt_at', 'created_at', 'message_key'), contact_id: sql<number>`last_insert_rowid()` }),
    ),
    // A webhook event of the change in the same job (`webhooks/queue-events.ts`): the person's next
    // sequence, then, per endpoint, the older state events it supersedes and its row, whose sequence
    // (in the row and in the body) is read back from the sequence just taken, as the statements are
    // prepared once and cannot carry a value from one to the next.
    nextSequence: prepare(nextSequenceQuery(kysely, [nameTemplate('email_lower', 'seq')])),
    supersedeOlder: prepare(supersedeQuery(kysely, { emailLower: 'email_lower', endpoints: ['endpoint'], at: 'at' })),
    insertWebhook: prepare(
      kysely.insertInto('webhook_deliveries').values({
        ...nameTemplate(
          'event_id', 'endpoint', 'event_type', 'email_lower', 'email', 'status', 'attempts', 'next_attempt_at', 'claimed_at', 'created_at', 'finished_at',
          'last_status', 'last_error',
        ),
        seq: kysely.selectFrom('webhook_sequences').select('seq').where('email_lower', '=', 'email_lower' as never),
        body: sql<string>`json_set(${'body'}, ${sql.lit('$.data.sequence')}, (SELECT seq FROM webhook_sequences WHERE email_lower = ${'email_lower'}))`,
      }),
    ),
    // Expired nonces can never verify again, so their rows have done their job.
    deleteExpiredNonces: prepare(kysely.deleteFrom('captcha_nonces').where('expires_at', '<', 'now')),
  };
}

/** Options of `openSubmissionStore`; production passes none. */
interface SubmissionStoreOptions {
  groupCommit?: GroupCommitOptions;
  /** How often the writer checkpoints and reports its health (ms; see `writer.ts`). */
  maintenanceMs?: number;
  /** Where storage problems are logged; standard error until `logTo` is called. */
  log?: StorageLog;
  /** How often expired captcha nonces are looked for when no request deletes them (ms, default 60 s). */
  nonceSweepMs?: number;
  /** Which webhook endpoints take which events (default: none). */
  webhooks?: WebhookRouting;
}

/** How often, by default, the store deletes the captcha nonces that expired since the last request. */
const NONCE_SWEEP_MS = 60_000;

/** Opens the SQLite submission store: a writer (`writer.ts`) on `db`'s file, fed by group commit. */
export async function openSubmissionStore(
  db: SqliteDatabase,
  options: SubmissionStoreOptions,
): Promise<SubmissionStore & { groupCommit: GroupCommit<WriteStep[], number | null>; logTo(log: StorageLog): void }> {
  const prepared = statements(db.kysely);
  const names = Object.keys(prepared) as Array<keyof typeof prepared>;
  // The database file removed or replaced is a problem until a restart: the rows of this process would go to a file nobody opens again.
  const health = new StorageHealth(['files', 'write', 'checkpoint'] as const, options.log ?? stderrStorageLog, { sticky: ['files'] });
  let files: ReturnType<typeof recordDatabaseFiles> = [];
  const checkFiles = (): string | null => {
    const problem = databaseFilesProblem(files);
    health.set('files', problem);
    return problem;
  };
  const onHealth = (report: WriterHealth) => {
    health.set('checkpoint', report.checkpoint === null ? null : `WAL checkpoint failed: ${describe(report.checkpoint)}`);
    if (report.probe !== undefined) health.set('write', report.probe === null ? null : `write failed: ${describe(report.probe)}`);
    checkFiles();
  };
  const writer = startSqliteWriter(
    db.path,
    names.map((name) => prepared[name].sql),
    {
      onHealth,
      ...(options.maintenanceMs === undefined ? {} : { maintenanceMs: options.maintenanceMs }),
    },
  );
  await writer.ready;
  // Both connections have the files open now, -wal and -shm included.
  files = recordDatabaseFiles(db.path);
  const execute = async (jobs: WriteStep[][]) => {
    if (checkFiles() !== null) throw new WriterError({ message: health.problem()!, code: 'SQLITE_READONLY_DBMOVED' });
    let outcomes;
    try {
      outcomes = await writer.execute(jobs);
    } catch (error) {
      const code = (error as WriterError).code;
      if (isStorageFailure(code)) health.set('write', `write failed: ${describe(error as ErrorDetail)}`);
      throw error;
    }
    // After the commit, before anyone is answered: rows that went into a removed file are not acknowledged.
    if (checkFiles() !== null) throw new WriterError({ message: health.problem()!, code: 'SQLITE_READONLY_DBMOVED' });
    const failed = outcomes.find((outcome): outcome is ErrorDetail => outcome !== null && typeof outcome === 'object' && isStorageFailure(outcome.code));
    health.set('write', failed === undefined ? null : `write failed: ${describe(failed)}`);
    return outcomes;
  };
  const webhooks = options.webhooks ?? NO_WEBHOOKS;
  const step = (name: keyof typeof prepared, values: Record<string, unknown>, stopIfNoRow = false): WriteStep => [
    names.indexOf(name),
    prepared[name].bind.map((column) => {
      if (!(column in values)) throw new Error(`statement ${name} needs a value for ${column}`);
      return values[column];
    }),
    stopIfNoRow,
  ];
  const groupCommit = new GroupCommit<WriteStep[], number | null>(async (jobs) => {
    const outcomes = await execute(jobs);
    return outcomes.map((outcome) =>
      outcome !== null && typeof outcome === 'object' ? { ok: false, error: new WriterError(outcome) } : { ok: true, value: outcome },
    );
  }, options.groupCommit);

  // A used nonce is deleted by the next write that records one; when no other comes, this sweep
  // deletes it within a sweep period of its expiry (the privacy policy keeps it until the question
  // expires). It writes only while a nonce may be waiting: until the latest expiry it has seen, from
  // this run's requests or from the rows an earlier run left.
  const [left] = db.raw.prepare('SELECT max(expires_at) AS latest FROM captcha_nonces').all() as Array<{ latest: string | null }>;
  let sweepUntil = left?.latest ? Date.parse(left.latest) : 0;
  const sweep = setInterval(() => {
    const now = Date.now();
    if (sweepUntil === 0) return;
    if (now > sweepUntil) sweepUntil = 0;
    groupCommit.submit([step('deleteExpiredNonces', { now: isoAt(now) })]).catch(() => {
      sweepUntil = Math.max(sweepUntil, now); // recorded by the store's health; the next sweep tries again
    });
  }, options.nonceSweepMs ?? NONCE_SWEEP_MS);
  sweep.unref();
  const noteNonce = (expiresAt: number) => (sweepUntil = Math.max(sweepUntil, expiresAt));

  return {
    groupCommit,
    async subscribe(signup, now, terms) {
      const row = newsletterRow(signup, now, terms);
      const event = (kind: 'subscribed' | 'confirmed') => step('insertConsentEvent', { event: kind, lang: row.lang, consent_hash: row.consent_hash, privacy_version: row.privacy_version, at: row.created_at, email_lower: row.email_lower });
      if (terms.status === 'confirmed') {
        // Sequence 1 stands in for the one `nextSequence` takes (`insertWebhook` writes that one).
        const confirmed = deliveryRows(webhooks.endpointsFor('newsletter.confirmed'), withSequence(newsletterConfirmed(row, now), 1), row.email_lower, now);
        const stoppedAt = await groupCommit.submit([
          step('insertSignup', row, true),
          event('subscribed'),
          event('confirmed'),
          ...(confirmed.length > 0 ? [step('nextSequence', { email_lower: row.email_lower, seq: now })] : []),
          ...confirmed.flatMap((hook) => [step('supersedeOlder', { email_lower: row.email_lower, endpoint: hook.endpoint, at: row.created_at }), step('insertWebhook', hook)]),
        ]);
        return stoppedAt === 0 ? 'duplicate' : 'created';
      }
      // One job in the single writer: the checks and the writes after them cannot interleave with another's.
      const stoppedAt = await groupCommit.submit([
        step('addressIsNew', { email_lower: row.email_lower }, true),
        step('chargeMailCap', capValues(row.email, 'newsletter', now), true),
        step('insertSignup', row, true),
        event('subscribed'),
        step('insertConfirmMail', { ...outboxRow('newsletter_confirm', now), email_lower: row.email_lower }),
      ]);
      return stoppedAt === 0 || stoppedAt === 2 ? 'duplicate' : stoppedAt === 1 ? 'capped' : 'created';
    },
    async submitContact(contact, nonce, now) {
      const at = isoAt(now);
      noteNonce(nonce.expiresAt);
      const stoppedAt = await groupCommit.submit([
        step('claimNonce', { nonce: nonce.value, expires_at: isoAt(nonce.expiresAt), used_at: at }, true),
        // Its contact.received event waits on the row for the webhook worker (`webhooks/waiting-contacts.ts`).
        step('insertContact', contactRow(contact, now, null, webhooks)),
        step('insertOutbox', outboxRow('sales', now)),
        step('deleteExpiredNonces', { now: at }),
      ]);
      return stoppedAt === 0 ? 'captcha_reused' : 'created';
    },
    async submitUnverifiedContact(contact, now, expiresAt) {
      const stoppedAt = await groupCommit.submit([
        step('chargeMailCap', capValues(contact.email, 'contact', now), true),
        step('insertContact', contactRow(contact, now, expiresAt)),
        step('insertOutbox', outboxRow('contact_confirm', now)),
      ]);
      return stoppedAt === 0 ? 'capped' : 'queued';
    },
    async spendNonce(nonce, now) {
      const at = isoAt(now);
      noteNonce(nonce.expiresAt);
      await groupCommit.submit([
        step('claimNonce', { nonce: nonce.value, expires_at: isoAt(nonce.expiresAt), used_at: at }, true),
        step('deleteExpiredNonces', { now: at }),
      ]);
    },
    isReady: () => writer.alive && checkFiles() === null && health.problem() === null && schemaIsCurrent(db),
    logTo: (log) => health.logTo(log),
    async close() {
      clearInterval(sweep);
      await groupCommit.close();
      await writer.close();
    },
  };
}

function describe(error: ErrorDetail): string {
  return error.code === undefined ? error.message : `${error.code}: ${error.message}`;
}
