/**
 * `npm run bench:ingest`: autocannon (-c 50 -d 10) against `POST /api/newsletter` with unique
 * emails on a real, durable SQLite file, and against a no-op Fastify route that does the same
 * JSON parsing and contract validation but stores nothing. Prints req/s, p50 and p99 latency
 * and the ratio to the no-op route. Target: ≥ 80 % of the no-op throughput, p99 < 20 ms.
 *
 * Two more rows show what the design choices cost or buy: `synchronous=NORMAL` (not durable on
 * power loss, so never used in production) and one commit per request (group commit off).
 * `--quick` runs only the two target rows. Each server runs in its own child process so the
 * load generator does not share its event loop; both log at `warn` (no per-request log lines).
 *
 * Usage: npx tsx tests/bench/ingest.bench.ts [--quick] [--duration 10] [--connections 50]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { LIMITS, newsletterSchema, validate } from '../../ingest/contract.ts';
import { resolveConfig } from '../../ingest/config.ts';
import { startService } from '../../ingest/server.ts';
import type { Synchronous } from '../../ingest/sqlite.ts';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The servers the bench can start. */
const SCENARIOS = {
  'no-op route (same validation)': { kind: 'noop' },
  'ingest, group commit, synchronous=FULL': { kind: 'ingest', synchronous: 'FULL', maxBatch: 256 },
  'ingest, group commit, synchronous=NORMAL': { kind: 'ingest', synchronous: 'NORMAL', maxBatch: 256 },
  'ingest, one commit per row, FULL': { kind: 'ingest', synchronous: 'FULL', maxBatch: 1 },
} as const;
type ScenarioName = keyof typeof SCENARIOS;

// ---- child process: one server --------------------------------------------------------------

async function serveScenario(name: ScenarioName): Promise<void> {
  const scenario = SCENARIOS[name];
  if (scenario.kind === 'noop') {
    const app = Fastify({ logger: false, bodyLimit: LIMITS.bodyBytes });
    app.post('/api/newsletter', async (request, reply) => {
      const result = validate(newsletterSchema, request.body);
      return result.ok ? reply.code(201).send({ ok: true }) : reply.code(400).send({ error: { code: 'invalid' } });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.send!({ port: (app.server.address() as { port: number }).port });
    process.on('message', () => process.send!({ rows: null, batches: null, jobs: null }));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const config = resolveConfig(
    { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000000' },
    dir,
  );
  if (!config.ok) throw new Error(config.errors.join('\n'));
  const service = await startService(config.config, {
    synchronous: scenario.synchronous as Synchronous,
    groupCommit: { maxBatch: scenario.maxBatch, maxDelayMs: scenario.maxBatch === 1 ? 0 : 2 },
  });
  const sync = service.db.raw.pragma('synchronous', { simple: true });
  process.send!({ port: (service.app.server.address() as { port: number }).port, synchronous: sync });
  process.on('message', async () => {
    const rows = (service.db.raw.prepare('SELECT count(*) AS n FROM newsletter').get() as { n: number }).n;
    const stats = { rows, ...service.store.groupCommit.stats };
    await service.close();
    rmSync(dir, { recursive: true, force: true });
    process.send!(stats);
  });
}

// ---- parent process: load and report --------------------------------------------------------

function startChild(name: ScenarioName): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', name], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

interface Stats {
  rows: number | null;
  batches: number | null;
  jobs: number | null;
}

async function measure(name: ScenarioName, seconds: number, connections: number) {
  const { child, port } = await startChild(name);
  const warmup = await load(port, 2, connections, 'warmup');
  const result = await load(port, seconds, connections, 'measured');
  const stats = await new Promise<Stats>((resolve) => {
    child.once('message', (message: Stats) => resolve(message));
    child.send('stats');
  });
  child.kill();
  return { name, result, stats, created: warmup['2xx'] + result['2xx'] };
}

function argument(flag: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
  const seconds = argument('--duration', 10);
  const connections = argument('--connections', 50);
  const names = Object.keys(SCENARIOS) as ScenarioName[];
  const chosen = process.argv.includes('--quick') ? names.slice(0, 2) : names;
  const rows = [];
  for (const name of chosen) {
    process.stderr.write(`running ${name} for ${seconds} s with ${connections} connections…\n`);
    rows.push(await measure(name, seconds, connections));
  }
  const noop = rows[0]!.result.requests.average;
  const table = rows.map(({ name, result, stats, created }) => ({
    scenario: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'non-2xx': result.non2xx + result.errors + result.timeouts,
    // Every 201 (warm-up included) must be a row on disk.
    '201s = rows': stats.rows === null ? '-' : stats.rows === created ? `yes (${created})` : `NO (${created} vs ${stats.rows})`,
    'rows/commit': stats.batches ? (stats.jobs! / stats.batches).toFixed(1) : '-',
    'vs no-op': `${((100 * result.requests.average) / noop).toFixed(1)} %`,
  }));
  console.table(table);
  const target = rows[1]!;
  const ratio = target.result.requests.average / noop;
  const verdict = ratio >= 0.8 && target.result.latency.p99 < 20 && target.result.non2xx === 0;
  console.log(
    `target (≥ 80 % of no-op, p99 < 20 ms, all 201): ${verdict ? 'met' : 'NOT met'} — ${(100 * ratio).toFixed(1)} %, p99 ${target.result.latency.p99} ms`,
  );
}

if (process.argv[2] === '--serve') await serveScenario(process.argv[3] as ScenarioName);
else await main();
