/**
 * What several replicas on one PostgreSQL share, proved with several backends (each its own
 * pool, as a replica has) on one real database: migrations run once when all start together,
 * rate limits (the daily contact cap too), the captcha key and spent captcha tokens are shared,
 * the outbox hands each row to one worker (its claims and sent marks made many at a time too), a
 * stale worker's finish is fenced off, and an outage answers 503 with Retry-After and heals by
 * itself.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../../ingest/http/app.ts';
import { loggerOptions } from '../../../../ingest/http/logger.ts';
import type { PostgresBackend } from '../../../../ingest/store/backend.ts';
import { openBackend } from '../../../../ingest/store/open-backend.ts';
import { migratePostgres } from '../../../../ingest/store/postgres/pg-migrate.ts';
import { queueEvents } from '../../../../ingest/store/webhooks/queue-events.ts';
import { webhookStore } from '../../../../ingest/store/webhooks/webhook-store.ts';
import { startPostgresCluster } from '../../../helpers/postgres-cluster.ts';
import { configFor, contact, freshPostgresUrl, NO_CEILINGS, postJson, signup, solvedCaptcha, tempDir, testNewsletter } from '../../fixtures.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const quiet = { error: () => {}, info: () => {} };

async function replica(url: string, env: Record<string, string> = {}): Promise<PostgresBackend> {
  const temp = tempDir();
  const backend = await openBackend(configFor(temp.dir, { DATABASE_URL: url, ...env }), { probeMs: 50, log: quiet });
  cleanups.push(temp.remove, () => backend.close());
  if (backend.kind !== 'postgres') throw new Error('expected PostgreSQL');
  return backend;
}

// Captcha answers are accepted at once (the tests answer in microseconds), and no test meets the
// daily contact cap unless it sets one, nor an hourly ceiling.
async function appOn(backend: PostgresBackend, rateLimit: { max: number; windowMs: number; contactDailyMax?: number } = { max: 10_000, windowMs: 60_000 }) {
  const app = await buildApp({
    store: backend.submissions,
    consent: testNewsletter(backend.consentDb),
    captchaSecret: await backend.sharedCaptchaSecret(),
    rateLimit: { contactDailyMax: 1_000_000, newsletterDailyMax: 1_000_000, hourlyCeilings: NO_CEILINGS, ...rateLimit },
    captchaMinFillMs: 0,
    rateLimitStore: backend.rateLimitStore,
    isReady: () => backend.isReady(),
    logger: loggerOptions('silent'),
  });
  cleanups.push(() => app.close());
  return app;
}

describe.skipIf(inject('postgresUrl') === null)('replicas on one PostgreSQL', () => {
  it('migrates exactly once when five replicas start at the same time', async () => {
    const url = await freshPostgresUrl();
    const results = await Promise.all(Array.from({ length: 5 }, () => migratePostgres(url)));
    const applied = results.flatMap((result) => (result.results ?? []).filter((entry) => entry.status === 'Success'));
    expect(applied.length).toBeGreaterThan(0);
    // Each migration ran in exactly one of the five; the others found nothing to do.
    expect(new Set(applied.map((entry) => entry.migrationName)).size).toBe(applied.length);
    expect(results.filter((result) => (result.results ?? []).length > 0)).toHaveLength(1);
  });

  it('shares the rate limit: N posts per window across three replicas, not N each', async () => {
    const url = await freshPostgresUrl();
    const apps = await Promise.all([0, 1, 2].map(async () => appOn(await replica(url), { max: 5, windowMs: 60_000 })));
    const statuses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => postJson(apps[i % 3]!, '/api/newsletter', signup({ email: `r${i}@example.com` }))),
    );
    expect(statuses.filter((res) => res.statusCode === 201)).toHaveLength(5);
    expect(statuses.filter((res) => res.statusCode === 429)).toHaveLength(10);
  });

  it('shares one captcha key created by the first replica, and accepts a token once across replicas', async () => {
    const url = await freshPostgresUrl();
    const backends = await Promise.all([0, 1, 2].map(() => replica(url)));
    const secrets = await Promise.all(backends.map((backend) => backend.sharedCaptchaSecret()));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    const apps = await Promise.all(backends.map((backend) => appOn(backend)));
    const captcha = await solvedCaptcha(apps[0]!);
    const answers = await Promise.all(apps.flatMap((app) => [0, 1, 2].map(() => postJson(app, '/api/contact', contact({ captcha })))));
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((res) => res.statusCode === 422)).toHaveLength(8);
  });

  it('spends a token refused on one replica for all: its right answer on another is refused too', async () => {
    const url = await freshPostgresUrl();
    const backends = await Promise.all([0, 1, 2].map(() => replica(url)));
    const apps = await Promise.all(backends.map((backend) => appOn(backend)));
    const captcha = await solvedCaptcha(apps[0]!);
    const wrong = await postJson(apps[1]!, '/api/contact', contact({ captcha: { ...captcha, answer: (captcha.answer + 1) % 19 } }));
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([422, 'captcha_failed']);
    const right = await postJson(apps[2]!, '/api/contact', contact({ captcha }));
    expect([right.statusCode, right.json().error.code]).toEqual([422, 'captcha_failed']);
    const db = backends[0]!.kysely;
    expect(await db.selectFrom('contacts').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('captcha_nonces').select('nonce').execute()).toHaveLength(1);
  });

  it('shares the daily contact cap: N contact posts a day across three replicas, stored or refused, not N each', async () => {
    const url = await freshPostgresUrl();
    const apps = await Promise.all([0, 1, 2].map(async () => appOn(await replica(url), { max: 10_000, windowMs: 60_000, contactDailyMax: 4 })));
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const captcha = await solvedCaptcha(apps[(i + 1) % 3]!);
      // The second post answers wrongly: it counts like the others.
      const answer = i === 1 ? (captcha.answer + 1) % 19 : captcha.answer;
      statuses.push((await postJson(apps[i % 3]!, '/api/contact', contact({ captcha: { ...captcha, answer } }))).statusCode);
    }
    expect(statuses).toEqual([201, 422, 201, 201, ...Array(5).fill(429)]);
    // Another client's day is its own, and the per-window limit (shared too) was never reached.
    const other = await apps[0]!.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '198.51.100.9',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(contact({ captcha: await solvedCaptcha(apps[0]!) })),
    });
    expect(other.statusCode).toBe(201);
  });

  /** Two replicas of one new database, with `count` contact posts stored through the first (each queues a sales mail). */
  async function twoReplicasWithContacts(count: number) {
    const url = await freshPostgresUrl();
    const [a, b] = await Promise.all([replica(url), replica(url)]);
    const app = await appOn(a);
    for (let i = 0; i < count; i++) expect((await postJson(app, '/api/contact', contact({ captcha: await solvedCaptcha(app) }))).statusCode).toBe(201);
    return [a, b] as const;
  }

  it('hands each due outbox row to one worker (SKIP LOCKED), and fences off a stale claim', async () => {
    const [a, b] = await twoReplicasWithContacts(10);
    const now = Date.now();
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).outbox.claimNext(now)));
    const ids = claims.filter((job) => job !== null).map((job) => job!.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);

    // The lease of the first claim runs out; another worker claims the row again (attempt 2).
    const stale = claims.find((job) => job !== null)!;
    expect(await b.outbox.releaseStale(now + 1)).toBe(10);
    let again = await b.outbox.claimNext(now + 2);
    while (again !== null && again.id !== stale.id) again = await b.outbox.claimNext(now + 2);
    expect(again).toMatchObject({ id: stale.id, attempts: 2 });
    // The first worker's late finish and renewal change nothing; the current claim's do.
    expect(await a.outbox.renewLease(stale, now + 3)).toBe(false);
    expect(await a.outbox.markSent(stale, now + 3)).toBe(false);
    expect(await b.outbox.renewLease(again!, now + 3)).toBe(true);
    expect(await b.outbox.markSent(again!, now + 4)).toBe(true);
    expect((await a.outbox.counts()).sent).toBe(1);
  });

  it('regression: lanes asking together get one row each, never more rows than they asked for, while another replica claims too', async () => {
    // Claims asked together share one statement (issue 45); with `id IN (subquery … LIMIT n)` one
    // replica's statement took more rows than its limit while the other's took none.
    const [a, b] = await twoReplicasWithContacts(7);
    const now = Date.now();
    const [fromA, fromB] = await Promise.all([a, b].map((backend) => Promise.all(Array.from({ length: 5 }, () => backend.outbox.claimNext(now)))));
    const ids = [...fromA!, ...fromB!].filter((job) => job !== null).map((job) => job!.id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect((await a.outbox.counts()).sending).toBe(7);
  });

  it('regression: webhook claims racing on two replicas each take at most their limit, and every delivery goes to one of them', async () => {
    // The webhook store's claim had the outbox's `id IN (subquery … LIMIT n FOR UPDATE SKIP LOCKED)`.
    const url = await freshPostgresUrl();
    const [a, b] = await Promise.all([replica(url), replica(url)]);
    const now = Date.now();
    const person = (i: number) => `person${i}@example.com`;
    const lead = (i: number) => ({
      type: 'contact.received' as const,
      data: { version: 1 as const, firstName: 'Ana', lastName: 'Pérez', email: person(i), phone: null, companyName: null, country: 'es', intent: 'demo', message: 'Hola', lang: 'es', sourcePage: null, receivedAt: new Date(now).toISOString() },
    });
    const events = Array.from({ length: 7 }, (_, i) => ({ draft: lead(i), emailLower: person(i), endpoints: ['crm'], now }));
    await a.consentDb.transaction((tx) => queueEvents(a.consentDb.kysely, tx, events));
    const claims = await Promise.all([a, b].flatMap((backend) => Array.from({ length: 4 }, () => webhookStore(backend.consentDb).claimBatch(now, now, 2))));
    expect(claims.map((jobs) => jobs.length).every((taken) => taken <= 2)).toBe(true);
    const ids = claims.flat().map((job) => job.id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
  });

  it('records sent marks made together each by its own claim: a stale claim among current ones changes nothing', async () => {
    const [a, b] = await twoReplicasWithContacts(3);
    const now = Date.now();
    const stale = (await Promise.all([1, 2, 3].map(() => a.outbox.claimNext(now)))).map((job) => job!);
    // Every lease runs out; the other replica claims the three rows again (attempt 2).
    expect(await b.outbox.releaseStale(now + 1)).toBe(3);
    const current = (await Promise.all([1, 2, 3].map(() => b.outbox.claimNext(now + 2)))).map((job) => job!);
    const byId = (id: number) => current.find((job) => job.id === id)!;
    const marks = await Promise.all([
      b.outbox.markSent(stale[0]!, now + 3),
      b.outbox.markSent(byId(stale[0]!.id), now + 3),
      b.outbox.markSent(byId(stale[1]!.id), now + 3),
      b.outbox.markSent(stale[2]!, now + 3),
    ]);
    expect(marks).toEqual([false, true, true, false]);
    expect(await b.outbox.counts()).toMatchObject({ sent: 2, sending: 1 });
    expect(await b.outbox.markSent(byId(stale[2]!.id), now + 4)).toBe(true);
  });

  it("records a lane's sent mark in the commit that claims its next row, fenced as a mark alone is", async () => {
    const [a, b] = await twoReplicasWithContacts(3);
    const now = Date.now();
    // The first row's lease runs out and the other replica claims it again (attempt 2), then the second row.
    const stale = (await a.outbox.claimNext(now))!;
    expect(await b.outbox.releaseStale(now + 1)).toBe(1);
    const current = (await b.outbox.claimNext(now + 2))!;
    const second = (await b.outbox.claimNext(now + 2))!;
    expect([current.id, current.attempts]).toEqual([stale.id, 2]);
    // Two lanes of b record their mails and claim again at once; the stale mark goes with them.
    const [staleMark, secondMark, next] = await Promise.all([
      b.outbox.markSent(stale, now + 3),
      b.outbox.markSent(second, now + 3),
      b.outbox.claimNext(now + 3),
    ]);
    expect([staleMark, secondMark]).toEqual([false, true]);
    expect(next).not.toBeNull();
    const rows = await b.kysely
      .selectFrom('outbox')
      .select(['id', 'status', 'attempts', sql<string>`xmin::text`.as('tx')])
      .orderBy('id')
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(stale.id)).toMatchObject({ status: 'sending', attempts: 2 });
    expect(byId.get(second.id)).toMatchObject({ status: 'sent' });
    expect(byId.get(next!.id)).toMatchObject({ status: 'sending' });
    // One transaction wrote the mark and the claim: one commit, one WAL flush.
    expect(byId.get(second.id)!.tx).toBe(byId.get(next!.id)!.tx);
  });
});

describe.skipIf(inject('postgresUrl') === null)('a PostgreSQL outage', () => {
  it('answers 503 unavailable with Retry-After while the server is down, and recovers by itself', async () => {
    const cluster = await startPostgresCluster();
    cleanups.push(() => cluster.stop());
    const backend = await replica(cluster.url);
    const app = await appOn(backend);
    expect((await postJson(app, '/api/newsletter', signup({ email: 'before@example.com' }))).statusCode).toBe(201);

    cluster.stopImmediate();
    const during = await postJson(app, '/api/newsletter', signup({ email: 'during@example.com' }));
    expect(during.statusCode).toBe(503);
    expect(during.json().error.code).toBe('unavailable');
    expect(during.headers['retry-after']).toBe('5');
    await expect.poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 5000 }).toBe(503);

    cluster.start();
    await expect.poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await postJson(app, '/api/newsletter', signup({ email: 'after@example.com' }))).statusCode).toBe(201);
    const emails = (await backend.kysely.selectFrom('newsletter').select('email').orderBy('id').execute()).map((row) => row.email);
    expect(emails).toEqual(['before@example.com', 'after@example.com']);
  });

  it('keeps every acknowledged row through pg_ctl restart -m immediate in the middle of a burst', async () => {
    const cluster = await startPostgresCluster();
    cleanups.push(() => cluster.stop());
    const backend = await replica(cluster.url);
    const app = await appOn(backend);
    const acknowledged: string[] = [];
    const posts = Array.from({ length: 200 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 2));
      const email = `burst${i}@example.com`;
      const res = await postJson(app, '/api/newsletter', signup({ email }));
      if (res.statusCode === 201) acknowledged.push(email);
      else expect(res.statusCode).toBe(503);
    });
    // In the middle of the burst: 150 ms in, and once a first post was answered (a busy machine answers later).
    const restart = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await expect.poll(() => acknowledged.length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
      await cluster.restartImmediate();
    })();
    await Promise.all(posts);
    await restart;
    await expect.poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 10_000 }).toBe(200);
    const stored = new Set((await backend.kysely.selectFrom('newsletter').select('email').execute()).map((row) => row.email));
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
  });
});

