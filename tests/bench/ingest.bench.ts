/**
 * `npm run bench:ingest`: autocannon (-c 50 -d 10) against `POST /api/newsletter` with unique
 * emails on a real, durable SQLite file, and against a no-op Fastify route that does the same
 * JSON parsing and contract validation but stores nothing. Prints req/s, p50 and p99 latency
 * and the ratio to the no-op route. Target: ≥ 80 % of the no-op throughput, p99 < 20 ms.
 *
 * Three more rows explain the gap: the same ingest app with a store that does nothing (what
 * the service's plugins cost before any storage), `synchronous=NORMAL` (not durable on power
 * loss, so never used in production: the cost of FULL) and one commit per request (what group
 * commit buys). `--quick` runs only the first two rows. Each server runs in its own child process so the
 * load generator does not share its event loop; both log at `warn` (no per-request log lines).
 *
 * Usage: npx tsx tests/bench/ingest.bench.ts [--quick] [--rounds 1] [--duration 10] [--connections 50]
 * (`--rounds 3` interleaves the scenarios three times and reports each one's median round;
 * `--max-delay-ms N` overrides the group commit's batch interval.)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { consentSetup } from '../../ingest/consent-setup.ts';
import { loadSiteContent } from '../../ingest/site-content.ts';
import { buildApp } from '../../ingest/http/app.ts';
import { LIMITS, newsletterSchema, validate } from '../../ingest/contract/schemas.ts';
import { DEFAULT_GROUP_COMMIT } from '../../ingest/store/group-commit.ts';
import { loggerOptions } from '../../ingest/http/logger.ts';
import { resolveConfig } from '../../ingest/config.ts';
import { startService } from '../../ingest/server.ts';
import type { Synchronous } from '../../ingest/store/sqlite/connection.ts';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The servers the bench can start; the first is the baseline, the second the target. */
const SCENARIOS = {
  'no-op: bare Fastify + contract validation': { kind: 'noop' },
  'ingest: group commit, synchronous=FULL': { kind: 'ingest', synchronous: 'FULL', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch },
  'ingest app with a no-op store': { kind: 'noop-store' },
  'ingest: group commit, synchronous=NORMAL': { kind: 'ingest', synchronous: 'NORMAL', maxBatch: DEFAULT_GROUP_COMMIT.maxBatch },
  'ingest: one commit per row, FULL': { kind: 'ingest', synchronous: 'FULL', maxBatch: 1 },
} as const;
type ScenarioName = keyof typeof SCENARIOS;

// ---- child process: one server --------------------------------------------------------------

// The child answers 'start' (CPU accounting begins), 'cpu' (CPU used since, in µs, all threads)
// and 'finish' (for the ingest scenarios: rows on disk and group commit counters; then it stops).
function answerParent(port: number, finish: () => Promise<Partial<Stats>>): void {
  let since = process.cpuUsage();
  process.on('message', async (message: string) => {
    if (message === 'start') {
      since = process.cpuUsage();
      process.send!('started');
    } else if (message === 'cpu') {
      const cpu = process.cpuUsage(since);
      process.send!(cpu.user + cpu.system);
    } else {
      process.send!({ rows: null, batches: null, jobs: null, ...(await finish()) });
    }
  });
  process.send!({ port });
}

async function serveScenario(name: ScenarioName): Promise<void> {
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
      submitUnverifiedContact: async () => {},
      isReady: () => true,
      close: async () => {},
    };
    // Every signup is new here, so the consent database (used for repeats and links) is never reached.
    const unused = () => {
      throw new Error('the noop-store scenario never reaches the consent database');
    };
    const consentDb = { kysely: undefined as never, all: unused, run: unused, transaction: unused, columns: unused, scrubDeleted: unused, close: async () => {} };
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
    const app = await buildApp({ store, newsletter, captchaSecret: 'x'.repeat(64), logger: loggerOptions('warn'), rateLimit: { max: 1e9, windowMs: 60_000 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    answerParent((app.server.address() as { port: number }).port, async () => ({}));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const config = resolveConfig(
    { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000000' },
    dir,
  );
  if (!config.ok) throw new Error(config.errors.join('\n'));
  const service = await startService(config.config, {
    backend: {
      synchronous: scenario.synchronous as Synchronous,
      groupCommit:
        scenario.maxBatch === 1
          ? { maxBatch: 1, maxDelayMs: 0 }
          : { ...DEFAULT_GROUP_COMMIT, maxDelayMs: argument('--max-delay-ms', DEFAULT_GROUP_COMMIT.maxDelayMs) },
    },
  });
  const { backend } = service;
  if (backend.kind !== 'sqlite') throw new Error('the SQLite scenarios run on SQLite');
  answerParent((service.app.server.address() as { port: number }).port, async () => {
    const rows = (backend.db.raw.prepare('SELECT count(*) AS n FROM newsletter').get() as { n: number }).n;
    const stats = { rows, ...backend.groupCommitStats };
    await service.close();
    rmSync(dir, { recursive: true, force: true });
    return stats;
  });
}

// ---- parent process: load and report --------------------------------------------------------

interface Stats {
  rows: number | null;
  batches: number | null;
  jobs: number | null;
}

function startChild(name: ScenarioName): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', name, ...process.argv.slice(2)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
}

async function load(port: number, seconds: number, connections: number, run: string): Promise<AutocannonResult> {
  let sequence = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}/api/newsletter`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          body: JSON.stringify({
            name: 'Bench Mark',
            email: `bench-${run}-${sequence++}@example.com`,
            privacyConsent: true,
            marketingConsent: false,
            lang: 'en',
          }),
        }),
      },
    ],
  });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer: T) => resolve(answer));
    child.send(message);
  });
}

function argument(flag: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

interface Run {
  result: AutocannonResult;
  cpuMicros: number;
}

const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.result.requests.average - b.result.requests.average)[Math.floor(runs.length / 2)]!;

async function main(): Promise<void> {
  const seconds = argument('--duration', 10);
  const connections = argument('--connections', 50);
  const rounds = argument('--rounds', 1);
  const names = Object.keys(SCENARIOS) as ScenarioName[];
  const chosen = process.argv.includes('--quick') ? names.slice(0, 2) : names;
  const servers = [];
  for (const name of chosen) {
    const { child, port } = await startChild(name);
    const warmup = await load(port, 2, connections, 'warmup');
    servers.push({ name, child, port, runs: [] as Run[], created: warmup['2xx'] });
  }
  // Rounds interleave the scenarios, so a burst of other load on the machine hits all of them.
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      process.stderr.write(`round ${round}/${rounds}: ${server.name}, ${seconds} s, ${connections} connections…\n`);
      await ask(server.child, 'start');
      const result = await load(server.port, seconds, connections, `r${round}`);
      server.runs.push({ result, cpuMicros: await ask<number>(server.child, 'cpu') });
      server.created += result['2xx'];
    }
  }
  const rows = [];
  for (const server of servers) {
    const stats = await ask<Stats>(server.child, 'finish');
    server.child.kill();
    rows.push({ name: server.name, ...median(server.runs), stats, created: server.created });
  }
  const noop = rows[0]!.result.requests.average;
  const table = rows.map(({ name, result, cpuMicros, stats, created }) => ({
    scenario: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'non-2xx': result.non2xx + result.errors + result.timeouts,
    // Every 201 (warm-up included) must be a row on disk. A run ends with up to one request per
    // connection in flight: stored, but its 201 not counted by autocannon.
    'rows ≥ 201s':
      stats.rows === null
        ? '-'
        : stats.rows >= created && stats.rows - created <= (rounds + 1) * connections
          ? `yes (${stats.rows})`
          : `NO (${created} 201s, ${stats.rows} rows)`,
    'rows/commit': stats.batches ? (stats.jobs! / stats.batches).toFixed(1) : '-',
    // Server CPU (all its threads) per answered request.
    'CPU µs/req': Math.round(cpuMicros / result.requests.total),
    'vs no-op': `${((100 * result.requests.average) / noop).toFixed(1)} %`,
  }));
  if (rounds > 1) console.log(`median of ${rounds} interleaved rounds per scenario`);
  console.table(table);
  const target = rows[1]!;
  const ratio = target.result.requests.average / noop;
  const app = rows.find((row) => row.name === 'ingest app with a no-op store');
  if (app !== undefined) {
    console.log(`durable storage alone: ${((100 * target.result.requests.average) / app.result.requests.average).toFixed(1)} % of the same app with a no-op store`);
  }
  const verdict = ratio >= 0.8 && target.result.latency.p99 < 20 && target.result.non2xx === 0;
  console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} cores`);
  console.log(
    `target (≥ 80 % of no-op, p99 < 20 ms, all 201): ${verdict ? 'met' : 'NOT met'} — ${(100 * ratio).toFixed(1)} %, p99 ${target.result.latency.p99} ms`,
  );
}

if (process.argv[2] === '--serve') await serveScenario(process.argv[3] as ScenarioName);
else await main();
