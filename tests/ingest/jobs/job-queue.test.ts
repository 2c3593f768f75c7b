/**
 * The job queue both workers run on, over a real SQLite file (the webhook deliveries' table and its
 * store, rows written directly): what it claims, how a dead worker's row is taken over once its
 * lease has run out, that a finish through a lost claim changes nothing and is logged, the retry
 * schedule it hands out, and how it stops.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isoAt, manualClock } from '../../../ingest/clock.ts';
import { jobQueue, type JobQueueOptions } from '../../../ingest/jobs/job-queue.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOps } from '../../../ingest/store/sqlite/sqlite-ops-database.ts';
import { type WebhookJob, webhookStore } from '../../../ingest/store/webhooks/webhook-store.ts';
import { eventually, migratedDb, tempDir } from '../fixtures.ts';

const T0 = Date.parse('2026-11-28T12:00:00Z');
const LEASE_MS = 60_000;
const POLICY = { firstDelayMs: 1_000, maxDelayMs: 4_000, giveUpAfterMs: 3_600_000, jitter: 0.2 };

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** A migrated SQLite file with `count` pending deliveries due at `T0`, each about its own person. */
async function tableWith(count: number): Promise<{ db: SqliteDatabase; store: ReturnType<typeof webhookStore>; rows: () => Array<{ id: number; status: string; attempts: number; next_attempt_at: string; last_error: string | null }> }> {
  const temp = tempDir();
  const db = await migratedDb(temp.dir);
  cleanups.push(temp.remove, () => db.close());
  const insert = db.raw.prepare(
    `INSERT INTO webhook_deliveries (event_id, endpoint, event_type, email_lower, email, seq, body, status, attempts, next_attempt_at, created_at)
     VALUES (?, 'crm', 'contact.received', ?, ?, 1, '{}', 'pending', 0, ?, ?)`,
  );
  for (let i = 1; i <= count; i++) insert.run(`msg_${i}`, `p${i}@example.com`, `p${i}@example.com`, isoAt(T0), isoAt(T0));
  return {
    db,
    store: webhookStore(sqliteOps(db)),
    rows: () => db.raw.prepare('SELECT id, status, attempts, next_attempt_at, last_error FROM webhook_deliveries ORDER BY id').all() as never,
  };
}

/** Log lines by level, as `[level, message]`. */
function capturedLog() {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (_data: unknown, message?: string) => void lines.push([level, message ?? '']);
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

type Store = ReturnType<typeof webhookStore>;
type Handle = JobQueueOptions<WebhookJob, { handled: number[] }>['handle'];

/** A queue over `store` that claims `batch` rows at a time and hands them to `handle`. */
function queueOver(store: Store, handle: Handle, options: { clock?: ReturnType<typeof manualClock>; batch?: number; log?: ReturnType<typeof capturedLog>['log'] } = {}) {
  return jobQueue<WebhookJob, { handled: number[] }>({
    table: store,
    names: { queue: 'test', rows: 'test rows' },
    clock: options.clock ?? manualClock(T0),
    log: options.log ?? capturedLog().log,
    pollMs: 60_000,
    leaseMs: LEASE_MS,
    policy: POLICY,
    random: () => 0.5,
    tally: () => ({ handled: [] }),
    claim: async (now, dueBy) => {
      const jobs = await store.claimBatch(now, dueBy, options.batch ?? 2);
      return jobs.length === 0 ? null : jobs;
    },
    handle,
  });
}

/** Records `jobs` delivered through their claims; returns which were still held. */
const delivered = (store: Store, jobs: readonly WebhookJob[], now: number) =>
  store.record(
    jobs.map((job) => ({ claim: { id: job.id, attempts: job.attempts, eventType: job.eventType, emailLower: job.emailLower }, kind: 'delivered' as const, status: 200 })),
    now,
  );

describe('the job queue', () => {
  it('claims every due row once per pass, in batches, and finds nothing left in the next pass', async () => {
    const { store, rows } = await tableWith(5);
    const queue = queueOver(store, async (jobs, pass) => {
      pass.tally.handled.push(...jobs.map((job) => job.id));
      await delivered(store, jobs, T0);
      return false;
    });
    expect(await queue.runPass()).toEqual({ claimed: 5, tally: { handled: [1, 2, 3, 4, 5] } });
    expect(rows().map((row) => [row.status, row.attempts])).toEqual(Array.from({ length: 5 }, () => ['delivered', 1]));
    expect(await queue.runPass()).toEqual({ claimed: 0, tally: { handled: [] } });
  });

  it('takes over a row whose worker died once its lease has run out, and not before', async () => {
    const { store, rows } = await tableWith(1);
    // A worker claimed the row at T0 and died.
    const [dead] = await store.claimBatch(T0, T0, 1);
    const clock = manualClock(T0 + LEASE_MS - 1);
    const { lines, log } = capturedLog();
    const queue = queueOver(store, async (jobs) => (await delivered(store, jobs, clock.now()), false), { clock, log });

    expect((await queue.runPass()).claimed).toBe(0);
    expect(rows()[0]).toMatchObject({ status: 'sending', attempts: 1 });

    clock.advance(2);
    expect((await queue.runPass()).claimed).toBe(1);
    expect(rows()[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(lines).toContainEqual(['warn', 'test rows left sending by a stopped process are due again']);

    // The dead worker's finish comes late: its claim is fenced off, the row stays delivered, and the queue says so.
    const [held] = await delivered(store, [dead!], clock.now());
    queue.fenced(held!, { rowId: dead!.id });
    expect(held).toBe(false);
    expect(rows()[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(lines.filter(([level]) => level === 'warn').map(([, message]) => message)).toContain('test outcome not recorded: the claim was lost to a newer one (its lease ran out)');
  });

  it('hands out the retry schedule: doubling with jitter, capped, then given up once the budget has run out', async () => {
    const { store } = await tableWith(1);
    const queue = queueOver(store, async () => false);
    const job = { id: 1, attempts: 1, queuedAt: T0 } as WebhookJob;
    // random 0.5 is no jitter: 1 s, 2 s, 4 s, then the 4 s cap.
    expect([1, 2, 3, 4].map((attempts) => queue.retryAt({ ...job, attempts }, T0))).toEqual([1_000, 2_000, 4_000, 4_000].map((ms) => ({ action: 'retry', at: T0 + ms })));
    // The last try is at the deadline, not after it.
    expect(queue.retryAt(job, T0 + POLICY.giveUpAfterMs - 10)).toEqual({ action: 'retry', at: T0 + POLICY.giveUpAfterMs });
    expect(queue.retryAt(job, T0 + POLICY.giveUpAfterMs)).toEqual({ action: 'give_up' });
  });

  it('stops after the pass in progress, aborting work that outlasts abandonAfterMs, and runs no pass after', async () => {
    const { store, rows } = await tableWith(1);
    let passes = 0;
    let abortReason: unknown;
    const queue = queueOver(store, async (jobs) => {
      passes += 1;
      const work = queue.inFlight();
      const lease = queue.hold(jobs[0]!);
      try {
        await new Promise<void>((resolve) => work.signal.addEventListener('abort', () => resolve(), { once: true }));
        abortReason = work.signal.reason;
      } finally {
        work.release();
        await lease.stop();
      }
      await store.record([{ claim: { id: jobs[0]!.id, attempts: jobs[0]!.attempts, eventType: jobs[0]!.eventType, emailLower: jobs[0]!.emailLower }, kind: 'retry', at: T0, status: null, error: 'abandoned' }], T0);
      return false;
    });
    queue.start();
    await eventually(() => rows()[0]!.status === 'sending');
    await queue.stop({ abandonAfterMs: 50 });
    expect(String(abortReason)).toContain('no answer within 50 ms of shutdown');
    expect(queue.stopping).toBe(true);
    // Abandoned work is due again at once, and nothing claims it once the queue has stopped.
    expect(rows()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'abandoned' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(passes).toBe(1);
    expect(rows()[0]).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('wakes from an idle wait when told a row was queued, well before the poll period', async () => {
    const { db, store, rows } = await tableWith(0);
    const queue = queueOver(store, async (jobs) => (await delivered(store, jobs, T0), false), { clock: manualClock(T0 + 1) });
    cleanups.push(() => void queue.stop());
    queue.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    db.raw
      .prepare(`INSERT INTO webhook_deliveries (event_id, endpoint, event_type, email_lower, seq, body, status, attempts, next_attempt_at, created_at) VALUES ('msg_w', 'crm', 'contact.received', 'w@example.com', 1, '{}', 'pending', 0, ?, ?)`)
      .run(isoAt(T0), isoAt(T0));
    queue.wake();
    // The poll period is a minute; only the wake-up delivers it within the test's few seconds.
    await eventually(() => rows()[0]?.status === 'delivered');
    await queue.stop();
  });

  it('claims the next rows while the last outcome is being recorded, and handles them only once it is recorded', async () => {
    const { store, rows } = await tableWith(2);
    const clock = manualClock(T0);
    const events: string[] = [];
    const queue = jobQueue<WebhookJob, { handled: number[] }>({
      table: store,
      names: { queue: 'test', rows: 'test rows' },
      clock,
      log: capturedLog().log,
      pollMs: 60_000,
      leaseMs: LEASE_MS,
      policy: POLICY,
      tally: () => ({ handled: [] }),
      claim: async (now, dueBy) => {
        const jobs = await store.claimBatch(now, dueBy, 1);
        events.push(`claimed ${jobs.map((job) => job.id).join(',') || 'none'}`);
        return jobs.length === 0 ? null : jobs;
      },
      handle: async (jobs, pass) => {
        const ids = jobs.map((job) => job.id).join(',');
        events.push(`handle ${ids}`);
        pass.tally.handled.push(...jobs.map((job) => job.id));
        // The record takes a while (a commit waiting for others to share it).
        const recording = new Promise<boolean>((resolve) => setTimeout(resolve, 50)).then(async () => {
          await delivered(store, jobs, clock.now());
          events.push(`recorded ${ids}`);
          return false;
        });
        return { recording };
      },
    });
    expect((await queue.runPass()).tally.handled).toEqual([1, 2]);
    expect(events).toEqual(['claimed 1', 'handle 1', 'claimed 2', 'recorded 1', 'handle 2', 'claimed none', 'recorded 2']);
    expect(rows().map((row) => row.status)).toEqual(['delivered', 'delivered']);
  });

  it('fails the pass when the last outcome cannot be recorded, and handles nothing claimed meanwhile', async () => {
    const { store } = await tableWith(2);
    const handled: number[] = [];
    const queue = queueOver(store, async (jobs) => {
      handled.push(...jobs.map((job) => job.id));
      return { recording: Promise.reject(new Error('database is gone')) };
    }, { batch: 1 });
    await expect(queue.runPass()).rejects.toThrow('database is gone');
    expect(handled).toEqual([1]);
  });
});
