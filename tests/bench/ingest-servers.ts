/**
 * The servers `npm run bench:ingest` measures, and the child-process side of the bench: each
 * server runs in a process of its own (the bench forks itself with `--serve <name>`), so the
 * load generator does not share its event loop. All log at `warn` (no per-request log lines).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { consentSetup } from '../../ingest/consent-setup.ts';
import { loadSiteContent } from '../../ingest/site-content.ts';
import { buildApp } from '../../ingest/http/app.ts';
import { LIMITS, newsletterSchema, validate } from '../../ingest/contract/schemas.ts';
import { DEFAULT_GROUP_COMMIT } from '../../ingest/store/group-commit.ts';
import { loggerOptions } from '../../ingest/http/logger.ts';
import { resolveConfig } from '../../ingest/config.ts';
import { startService } from '../../ingest/server.ts';
import type { Tables } from '../../ingest/store/tables.ts';
import { webhookStore } from '../../ingest/store/webhooks/webhook-store.ts';

export const SQLITE_DURABLE = 'ingest on SQLite: group commit, synchronous=FULL';
export const PG_ONE = 'ingest on PostgreSQL: 1 replica';
export const PG_TWO = 'ingest on PostgreSQL: 2 replicas';
export const PG_LOOP = 'PostgreSQL: 1 connection, 1 INSERT per commit';
export const NOOP_STORE = 'ingest app with a no-op store';
export const CONTACTS = 'contacts on SQLite: captcha, sales mail';
export const CONTACTS_WEBHOOK = 'contacts on SQLite, 1 webhook endpoint';
export const CONTACTS_WEBHOOK_QUEUED = 'contacts on SQLite, 1 webhook endpoint, deliveries held';

/**
 * The scenarios in table order; the first is the baseline. `--quick` leaves out the last two
 * (what explains SQLite's gap). The contact scenarios post contact messages (each with a captcha
 * answered at once) instead of signups: with and without a webhook endpoint, for its cost.
 */
export const SCENARIOS = {
  'no-op: bare Fastify + contract validation': { kind: 'noop' },
  [SQLITE_DURABLE]: { kind: 'ingest', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch },
  [PG_ONE]: { kind: 'postgres', replicas: 1 },
  [PG_TWO]: { kind: 'postgres', replicas: 2 },
  // No server: the bench itself commits in a loop (postgres-commits.ts).
  [PG_LOOP]: { kind: 'commit-loop' },
  [CONTACTS]: { kind: 'ingest', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch, form: 'contact', webhook: false },
  // The submission path alone: each contact queues its event in its transaction; none is sent. Before
  // the row that sends them: a scenario's server keeps draining its backlog while the next one is measured.
  [CONTACTS_WEBHOOK_QUEUED]: { kind: 'ingest', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch, form: 'contact', webhook: true, held: true },
  [CONTACTS_WEBHOOK]: { kind: 'ingest', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch, form: 'contact', webhook: true },
  [NOOP_STORE]: { kind: 'noop-store' },
  'ingest on SQLite: one commit per row, FULL': { kind: 'ingest', maxBatch: 1 },
} as const;
export type ScenarioName = keyof typeof SCENARIOS;

/** What a server reports about the round just measured. */
export interface Usage {
  /** CPU used since 'start', in µs, all threads. */
  cpuMicros: number;
  /** The highest resident set size seen since 'start' (sampled every 50 ms). */
  peakRssBytes: number;
}

/** A scenario's storage counters at the end. */
export interface Stats {
  rows: number | null;
  /** Group commit transactions (signups' on PostgreSQL), and the jobs they held. */
  batches: number | null;
  jobs: number | null;
}

/**
 * A Kysely that builds and compiles SQLite queries but has no database (Kysely's `DummyDriver`):
 * the consent parts read its dialect when they are set up, and the no-op store never runs a query.
 */
function queryBuilderOnly(): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

/** The value of `--flag N` on the command line, or `fallback`. */
export function argument(flag: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

/** What a server reports when asked to settle: how long its background work took to catch up, and what was still queued after the cap. */
export interface Settled {
  ms: number;
  /** Mails and webhook deliveries still pending or sending (0 once settled). */
  left: number;
}

/**
 * With `--cpu-prof DIR`: a CPU profile of each measured round of this server, written to
 * DIR/<scenario>-<pid>-<round>.cpuprofile (open it in Chrome's DevTools, Performance panel); without it, null.
 */
function cpuProfiler(): { start(): Promise<void>; stop(): Promise<void> } | null {
  const index = process.argv.indexOf('--cpu-prof');
  if (index < 0) return null;
  const dir = process.argv[index + 1]!;
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  let round = 0;
  return {
    async start() {
      await post('Profiler.enable');
      await post('Profiler.start');
    },
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      round += 1;
      const scenario = (process.argv[3] ?? 'server').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      writeFileSync(join(dir, `${scenario}-${process.pid}-${round}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/**
 * How long a server's backlog may stay the same size before the next measurement starts anyway (a
 * mail that keeps failing). A backlog that shrinks is waited for however long it takes: a cap on the
 * whole wait (it was 120 s) let the SQLite scenario's 47,000-61,000 confirmation mails, sent at about
 * 250 a second, still go out while PostgreSQL with one replica was measured after it, on the same two
 * cores.
 */
const SETTLE_STALL_MS = 30_000;

/** Waits until `backlog()` is 0 (polled every 50 ms), or until it has not shrunk for SETTLE_STALL_MS. */
async function settle(backlog: () => Promise<number>): Promise<Settled> {
  const began = Date.now();
  let left = await backlog();
  let shrank = { at: began, left };
  while (left > 0 && Date.now() - shrank.at < SETTLE_STALL_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await backlog();
    if (left < shrank.left) shrank = { at: Date.now(), left };
  }
  return { ms: Date.now() - began, left };
}

// The child answers 'start' (CPU accounting and RSS sampling begin), 'usage' (a Usage since then),
// 'settle' (a Settled: once the mails and webhook events it queued are sent, so that no scenario is
// measured while another's server still works off its backlog) and 'finish' (for the ingest
// scenarios: group commit counters, on SQLite the rows on disk; then it stops).
function answerParent(port: number, finish: () => Promise<Partial<Stats>>, backlog: () => Promise<number> = async () => 0): void {
  const profiler = cpuProfiler();
  let since = process.cpuUsage();
  let peakRssBytes = 0;
  const sample = () => (peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss()));
  let sampler: NodeJS.Timeout | undefined;
  process.on('message', async (message: string) => {
    if (message === 'start') {
      since = process.cpuUsage();
      peakRssBytes = 0;
      sample();
      clearInterval(sampler);
      sampler = setInterval(sample, 50);
      await profiler?.start();
      process.send!('started');
    } else if (message === 'settle') {
      process.send!(await settle(backlog));
    } else if (message === 'usage') {
      sample();
      const cpu = process.cpuUsage(since);
      await profiler?.stop();
      process.send!({ cpuMicros: cpu.user + cpu.system, peakRssBytes } satisfies Usage);
    } else {
      clearInterval(sampler);
      process.send!({ rows: null, batches: null, jobs: null, ...(await finish()) });
    }
  });
  // A bench that stopped without saying 'finish' (it failed) takes its servers with it.
  process.once('disconnect', () => process.exit(1));
  process.send!({ port });
}

/** Runs the server of scenario `name` in this (child) process; the SMTP sink's URL comes in `BENCH_SMTP_URL`, PostgreSQL's in `BENCH_DATABASE_URL`. */
export async function serveScenario(name: ScenarioName): Promise<void> {
  const scenario = SCENARIOS[name];
  if (scenario.kind === 'noop') {
    const app = Fastify({ logger: false, bodyLimit: LIMITS.bodyBytes });
    app.post('/api/newsletter', async (request, reply) => {
      const result = validate(newsletterSchema, request.body);
      return result.ok ? reply.code(201).send({ ok: true }) : reply.code(400).send({ error: { code: 'invalid' } });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    answerParent((app.server.address() as { port: number }).port, async () => ({}));
    return;
  }
  if (scenario.kind === 'noop-store') {
    // Everything the service does per request (plugins, hooks, validation, logging setup) except storing.
    const store = {
      subscribe: async () => 'created' as const,
      submitContact: async () => 'created' as const,
      submitUnverifiedContact: async () => 'queued' as const,
      spendNonce: async () => {},
      isReady: () => true,
      close: async () => {},
    };
    // Every signup is new here, so the consent database (used for repeats and links) is never reached.
    const unused = () => {
      throw new Error('the noop-store scenario never reaches the consent database');
    };
    const consentDb = { kysely: queryBuilderOnly(), locksRows: false, all: unused, run: unused, transaction: unused, columns: unused, scrubDeleted: unused, close: async () => {} };
    const setup = consentSetup({
      content: loadSiteContent('content'),
      secret: 'x'.repeat(64),
      consentDb,
      optIn: 'double',
      linkDays: 7,
      privacyVersion: null,
      siteUrl: null,
      apiUrl: null,
      from: 'forms@example.com',
    });
    const newsletter = { ...setup, onMailQueued: () => {} };
    const app = await buildApp({ store, consent: newsletter, captchaSecret: 'x'.repeat(64), logger: loggerOptions('warn'), rateLimit: { max: 1e9, windowMs: 60_000, newsletterDailyMax: 1e9, hourlyCeilings: { contact: 1e9, newsletter: 1e9 } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    answerParent((app.server.address() as { port: number }).port, async () => ({}));
    return;
  }
  if (scenario.kind === 'commit-loop') throw new Error('the commit loop runs in the bench process, without a server');
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const env: Record<string, string> = {
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_NEWSLETTER_DAILY_MAX: '1000000000',
    SMTP_URL: process.env.BENCH_SMTP_URL!,
    // The contact scenarios: the bench answers the captchas with the key it gives the service.
    CAPTCHA_SECRET: process.env.BENCH_CAPTCHA_SECRET!,
    CAPTCHA_MIN_FILL_MS: '0',
    RATE_LIMIT_CONTACT_DAILY_MAX: '1000000000',
    RATE_LIMIT_CONTACT_HOURLY_CEILING: '1000000000',
    RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '1000000000',
  };
  if ('webhook' in scenario && scenario.webhook) {
    Object.assign(env, { WEBHOOK_URL: process.env.BENCH_WEBHOOK_URL!, WEBHOOK_SECRET: process.env.BENCH_WEBHOOK_SECRET!, WEBHOOK_ALLOW_PRIVATE: '1' });
  }
  if (scenario.kind === 'postgres') {
    env.DATABASE_URL = process.env.BENCH_DATABASE_URL!;
    const poolMax = argument('--pg-pool-max', 0);
    if (poolMax > 0) env.PG_POOL_MAX = String(poolMax);
  }
  const config = resolveConfig(env, dir);
  if (!config.ok) throw new Error(config.errors.join('\n'));
  const service = await startService(config.config, {
    backend:
      scenario.kind === 'postgres'
        ? {}
        : {
            groupCommit:
              scenario.maxBatch === 1
                ? { maxBatch: 1, maxDelayMs: 0 }
                : { ...DEFAULT_GROUP_COMMIT, maxDelayMs: argument('--max-delay-ms', DEFAULT_GROUP_COMMIT.maxDelayMs) },
          },
  });
  // A held scenario queues its webhook events and sends none: the worker stops before the first submission.
  if ('held' in scenario) await service.webhooks.stop();
  const { backend } = service;
  const webhookRows = webhookStore(backend.consentDb);
  // The webhook counts' `waiting`: leads whose event the worker has not queued yet.
  const open = (counts: Record<string, number>) => (counts.waiting ?? 0) + (counts.pending ?? 0) + (counts.sending ?? 0);
  // A held scenario's events are never sent: only its mails count.
  const backlog = async () => open(await backend.outbox.counts()) + ('held' in scenario ? 0 : open(await webhookRows.counts()));
  answerParent((service.app.server.address() as { port: number }).port, async () => {
    // PostgreSQL's rows are counted by the bench, once for all replicas, after they have closed.
    const table = 'form' in scenario ? 'contacts' : 'newsletter';
    const rows = backend.kind === 'sqlite' ? (backend.db.raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : null;
    const stats = { rows, ...backend.groupCommitStats };
    await service.close();
    rmSync(dir, { recursive: true, force: true });
    return stats;
  }, backlog);
}
