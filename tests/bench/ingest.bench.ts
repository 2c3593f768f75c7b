/**
 * `npm run bench:ingest`: autocannon (-c 50 -d 10) against `POST /api/newsletter` with unique
 * emails, on a real, durable SQLite file and on PostgreSQL, and against a no-op Fastify route
 * that does the same JSON parsing and contract validation but stores nothing. Prints req/s, p50
 * and p99 latency, the ratio to the no-op route, each server's CPU per request and its peak
 * resident memory (RSS sampled every 50 ms while measured, per process), what the same requests
 * cost the other processes on the two cores (PostgreSQL's, and the bench's own: the load generator,
 * the SMTP sink and the webhook receiver), then the targets:
 *
 * - SQLite durable: ≥ 80 % of the no-op throughput, p99 < 20 ms.
 * - Contacts with one webhook endpoint: ≥ 90 % of the contacts' throughput without one, the service
 *   delivering its events to a receiver in the bench process that verifies them (while loaded the
 *   deliveries give way to the submissions: "sent while loaded" and "backlog sent in s" show when
 *   they went out). Beside it, to show where the cost is: the same with the events stored in each
 *   submission's transaction (a flag on the contact row) but never queued to the endpoint nor sent,
 *   and the SQLite store alone without HTTP
 *   (webhook-queue-cost.ts).
 * - PostgreSQL durable, 1 replica: ≥ 5,000 submissions/s with p99 < 25 ms at 50 connections and
 *   ≥ 10 rows stored per WAL flush over the whole run (issue 45: the commits of the outbox's claims
 *   and marks had brought it to two flushes a row); 2 replicas (two service processes on one
 *   database; autocannon's connections alternate between them, so the req/s is their sum and the
 *   p99 covers both): at least the one replica's req/s, p99 < 30 ms. Both: at least 5× the
 *   single-connection commit rate; ≤ 150 MB RSS per replica.
 *
 * PostgreSQL runs in a throw-away cluster per scenario (tests/helpers/postgres-cluster.ts, the
 * server's defaults: `synchronous_commit = on`, `fsync = on`), so each scenario's WAL counters
 * are its own: "rows/WAL flush" is the rows stored for each time the WAL was flushed to disk
 * (`pg_stat_wal.wal_sync`), warm-ups, mails and the backlog's drain included; `--pg-statements`
 * loads pg_stat_statements into each cluster and prints the statements run most often, to find
 * where commits come from. "rows/commit" is the group commit's rows per transaction, on either
 * database.
 * Every service sends its confirmation mails over SMTP to a sink in the bench process
 * (smtp-sink.ts), as in production, not into `.eml` files.
 *
 * The single-connection commit rate is measured without the service: one connection inserts one
 * row per statement (autocommit) in a loop, each waiting for its own WAL flush
 * (postgres-commits.ts). That is the fastest one connection commits rows durably one after
 * another, so the ratio is a conservative one: per request the service does more (three rows
 * in a transaction, HTTP, validation, the shared rate-limit counter) and can beat the loop only
 * by sharing flushes between concurrent commits.
 *
 * Two more rows explain SQLite's gap: the same ingest app with a store that does nothing (what
 * the service's plugins cost before any storage) and one commit per request (what group commit
 * buys). `--quick` leaves those two out. (A third row, `synchronous=NORMAL`, measured the cost of
 * FULL until the service lost that option: NORMAL is not durable on power loss, so no operator
 * should run it; its last figure is in docs/developers.md.) Without PostgreSQL installed its rows say so,
 * with the install hint. A scenario whose load got no 2xx answer at all stops the benchmark.
 *
 * `--writer` measures only where the SQLite writer lives (a worker thread, a smaller worker, the
 * main thread): memory at rest and under load, rows/s, CPU per row, event-loop delay
 * (sqlite-writer.ts).
 *
 * Usage: npx tsx tests/bench/ingest.bench.ts [--smoke | --quick | --writer [--request-cpu-us 40]] [--only TEXT] [--rounds 1] [--duration 10] [--connections 50] [--pg-statements]
 * (`--only contacts`: the no-op baseline and the scenarios whose names contain "contacts";
 * `--cpu-prof DIR`: each server's CPU profile of each measured round, for Chrome's DevTools)
 * (`--smoke`: 50 requests to every scenario at 10 connections after 10 to warm up, the commit
 * loop for 0.5 s, no target judged;
 * `--rounds 3` interleaves the scenarios three times and reports each one's median round;
 * `--max-delay-ms N` overrides SQLite's group commit batch interval, `--pg-pool-max N` the
 * PostgreSQL pool of each replica, PG_POOL_MAX's default otherwise; `--pg-setting name=value`,
 * repeatable, sets a server setting of each PostgreSQL scenario's cluster.)
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { INSTALL_HINT, type PostgresCluster, postgresBin } from '../helpers/postgres-cluster.ts';
import {
  argument,
  CONTACTS,
  CONTACTS_WEBHOOK,
  CONTACTS_WEBHOOK_QUEUED,
  NOOP_STORE,
  PG_LOOP,
  PG_ONE,
  PG_TWO,
  SCENARIOS,
  type ScenarioName,
  serveScenario,
  SQLITE_DURABLE,
  type Settled,
  type Stats,
  type Usage,
} from './ingest-servers.ts';
import { type AutocannonResult, BENCH_CAPTCHA_SECRET, load, SMOKE_REQUESTS } from './ingest-load.ts';
import { clusterCounts, clusterCpuMicros, commitLoop, durabilitySettings, migratedCluster, topStatements } from './postgres-commits.ts';
import { smtpSink } from './smtp-sink.ts';
import { type WebhookReceiver, webhookReceiver } from '../helpers/webhook-receiver.ts';
import { outboxDrainRows } from './outbox-drain.ts';
import { figure, SMOKE, skippedRow } from './smoke.ts';
import { writerRows } from './sqlite-writer.ts';
import { webhookQueueCostRows } from './webhook-queue-cost.ts';

/** One measured round of a scenario. */
interface Run {
  result: AutocannonResult;
  /** All the scenario's server processes together; null for the commit loop (no server). */
  cpuMicros: number | null;
  /** The bench process meanwhile: the load (autocannon), the SMTP sink, the webhook receiver. */
  benchCpuMicros: number;
  /** The scenario's PostgreSQL cluster meanwhile, all its processes; null without one (or off Linux). */
  pgCpuMicros: number | null;
  /** One per server process (replica). */
  peakRssBytes: number[];
  /** The mails and webhook events its servers sent while the load ran. */
  whileLoaded?: { mails: number; events: number };
  /** How long its servers took, once the load stopped, to send the mails and webhook events it queued. */
  settled?: Settled;
}

/** A scenario's counters at the end, with the 201s (warm-up included) they must cover and, on PostgreSQL, its WAL flushes. */
interface Totals extends Stats {
  created: number;
  walSyncs: number | null;
}

/** A started scenario: one measured round at a time, and its counters at the end. */
interface Scenario {
  name: ScenarioName;
  /** Resolves once its servers have sent what they queued (see `Settled`); the commit loop has nothing to send. */
  settle(): Promise<Settled>;
  /** Loads its servers for a second: a server idle since its last round runs colder code than one just measured. */
  warm(run: string): Promise<void>;
  measure(seconds: number, connections: number, run: string): Promise<Run>;
  finish(): Promise<Totals>;
}

/** `--pg-statements`: each PostgreSQL scenario's cluster counts its statements, printed when it finishes. */
const PG_STATEMENTS = process.argv.includes('--pg-statements');

/** `--pg-setting name=value` (repeatable): a server setting of every scenario's cluster, to try what an operator could set. */
const PG_SETTINGS = Object.fromEntries(
  process.argv.flatMap((arg, i) => (arg === '--pg-setting' && /^\w+=\S+$/.test(process.argv[i + 1] ?? '') ? [process.argv[i + 1]!.split('=') as [string, string]] : [])),
);

/**
 * The endpoint the webhook scenario delivers to: a real receiver in the bench process that verifies
 * each signature and answers 204, as a CRM's inbound hook would; its address and secret go to the
 * servers with the captcha key (`startScenario`).
 */
let receiver: WebhookReceiver | undefined;
let webhookEnv: Record<string, string> = {};

/** Everything a run starts, stopped again however it ends: a failed run left replicas and clusters running. */
const started = { children: [] as ChildProcess[], clusters: [] as PostgresCluster[] };
function stopEverything(): void {
  void receiver?.close();
  for (const child of started.children) child.kill();
  for (const cluster of started.clusters) cluster.stop();
}

function startChild(name: ScenarioName, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', name, ...process.argv.slice(2)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  started.children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer: T) => resolve(answer));
    child.send(message);
  });
}

/** Starts the scenario (for PostgreSQL on a cluster of its own; mail goes to `smtpUrl`) and warms it up for 2 s. */
async function startScenario(name: ScenarioName, connections: number, smtpUrl: string, warmUpSeconds: number): Promise<Scenario> {
  const scenario = SCENARIOS[name];
  let cluster: PostgresCluster | undefined;
  if (scenario.kind === 'postgres' || scenario.kind === 'commit-loop') {
    cluster = await migratedCluster(PG_STATEMENTS, PG_SETTINGS);
    started.clusters.push(cluster);
    process.stderr.write(`${name}: ${await durabilitySettings(cluster.url)}\n`);
  }
  if (scenario.kind === 'commit-loop') return commitLoopScenario(name, cluster!, warmUpSeconds);
  const children: Array<{ child: ChildProcess; port: number }> = [];
  const env = { BENCH_SMTP_URL: smtpUrl, ...webhookEnv, ...(cluster === undefined ? {} : { BENCH_DATABASE_URL: cluster.url }) };
  const form = 'form' in scenario ? scenario.form : 'newsletter';
  // One after the other: the first replica migrates (the bench already did) and creates the shared captcha key.
  for (let i = 0; i < (scenario.kind === 'postgres' ? scenario.replicas : 1); i++) children.push(await startChild(name, env));
  const ports = children.map(({ port }) => port);
  let created = (await load(ports, warmUpSeconds, connections, 'warmup', form))['2xx'];
  return {
    name,
    async settle() {
      const each = await Promise.all(children.map(({ child }) => ask<Settled>(child, 'settle')));
      return { ms: Math.max(...each.map((one) => one.ms)), left: each.reduce((sum, one) => sum + one.left, 0) };
    },
    async warm(run) {
      created += (await load(ports, 1, connections, `warmup-${run}`, form))['2xx'];
    },
    async measure(seconds, connections, run) {
      await Promise.all(children.map(({ child }) => ask(child, 'start')));
      const bench = process.cpuUsage();
      const pgBefore = cluster === undefined ? null : clusterCpuMicros(cluster.dataDir);
      const result = await load(ports, seconds, connections, run, form);
      const pgAfter = cluster === undefined ? null : clusterCpuMicros(cluster.dataDir);
      const benchCpu = process.cpuUsage(bench);
      figure(result['2xx'], `${name}: 2xx answers in round ${run}`, 1);
      const usages = await Promise.all(children.map(({ child }) => ask<Usage>(child, 'usage')));
      created += result['2xx'];
      return {
        result,
        cpuMicros: usages.reduce((sum, usage) => sum + usage.cpuMicros, 0),
        benchCpuMicros: benchCpu.user + benchCpu.system,
        pgCpuMicros: pgBefore === null || pgAfter === null ? null : pgAfter - pgBefore,
        peakRssBytes: usages.map((usage) => usage.peakRssBytes),
      };
    },
    async finish() {
      const stats = await Promise.all(children.map(({ child }) => ask<Stats>(child, 'finish')));
      for (const { child } of children) child.kill();
      // The replicas' counters added up; their rows are in one database.
      const sum = (key: 'batches' | 'jobs') => stats.reduce((total, each) => total + (each[key] ?? 0), 0);
      const totals = { rows: stats[0]!.rows, batches: sum('batches') || null, jobs: sum('jobs') || null, created, walSyncs: null };
      if (cluster === undefined) return totals;
      const counts = await clusterCounts(cluster.url);
      if (PG_STATEMENTS) {
        console.log(`${name}: the statements run most often (pg_stat_statements), over the whole run`);
        console.table(await topStatements(cluster.url));
      }
      cluster.stop();
      return { ...totals, rows: counts.rows, walSyncs: counts.walSyncs };
    },
  };
}

// The commit loop as a scenario: its commits stand for requests, each commit's time for latency.
async function commitLoopScenario(name: ScenarioName, cluster: PostgresCluster, warmUpSeconds: number): Promise<Scenario> {
  let created = (await commitLoop(cluster.url, warmUpSeconds, 'warmup')).commits;
  return {
    name,
    settle: async () => ({ ms: 0, left: 0 }),
    warm: async () => {},
    async measure(seconds, _connections, run) {
      const bench = process.cpuUsage();
      const loop = await commitLoop(cluster.url, seconds, run);
      const benchCpu = process.cpuUsage(bench);
      created += figure(loop.commits, `${name}: commits in round ${run}`, 1);
      const rate = loop.commits / loop.seconds;
      const result = {
        requests: { average: rate, p50: rate, p99: rate, total: loop.commits },
        latency: { average: loop.p50, p50: loop.p50, p99: loop.p99 },
        non2xx: 0,
        errors: 0,
        timeouts: 0,
        '2xx': loop.commits,
        duration: loop.seconds,
      };
      return { result, cpuMicros: null, benchCpuMicros: benchCpu.user + benchCpu.system, pgCpuMicros: null, peakRssBytes: [] };
    },
    async finish() {
      const counts = await clusterCounts(cluster.url);
      cluster.stop();
      return { rows: counts.rows, batches: counts.rows, jobs: counts.rows, created, walSyncs: counts.walSyncs };
    },
  };
}

const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.result.requests.average - b.result.requests.average)[Math.floor(runs.length / 2)]!;
const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);
const perFlush = (rows: number, walSyncs: number) => (walSyncs === 0 ? '-' : (rows / walSyncs).toFixed(1));
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const failures = (result: AutocannonResult) => result.non2xx + result.errors + result.timeouts;

async function main(): Promise<void> {
  const seconds = argument('--duration', SMOKE ? 0.5 : 10);
  const connections = argument('--connections', SMOKE ? 10 : 50);
  const rounds = argument('--rounds', 1);
  if (process.argv.includes('--writer')) {
    // Only the SQLite writer's placement (sqlite-writer.ts).
    const requestCpu = argument('--request-cpu-us', 40);
    console.log(`SQLite writer: ${rounds > 1 ? `median of ${rounds} interleaved rounds, ` : ''}${seconds} s, ${connections} submitters spending ${requestCpu} µs of CPU each before each job, synchronous=FULL, group commit`);
    console.table(await writerRows(seconds, connections, rounds, requestCpu));
    console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} cores`);
    return;
  }
  let names = Object.keys(SCENARIOS) as ScenarioName[];
  if (process.argv.includes('--quick') && !SMOKE) names = names.slice(0, names.indexOf(NOOP_STORE));
  const needsPostgres = (name: ScenarioName) => SCENARIOS[name].kind === 'postgres' || SCENARIOS[name].kind === 'commit-loop';
  const skipped = postgresBin() === null ? names.filter(needsPostgres) : [];
  names = names.filter((name) => !skipped.includes(name));
  // `--only TEXT`: the baseline (the no-op route) and the scenarios whose names contain TEXT.
  const only = process.argv.indexOf('--only');
  if (only >= 0) names = names.filter((name, i) => i === 0 || name.includes(process.argv[only + 1] ?? ''));
  const sink = await smtpSink();
  receiver = await webhookReceiver();
  webhookEnv = { BENCH_CAPTCHA_SECRET, BENCH_WEBHOOK_URL: receiver.url, BENCH_WEBHOOK_SECRET: receiver.secret };
  const scenarios: Array<Scenario & { runs: Run[] }> = [];
  const start = async (name: ScenarioName) => ({ ...(await startScenario(name, connections, sink.url, SMOKE ? 0.5 : 2)), runs: [] as Run[] });
  // A smoke run starts them all at once (their start-up is most of its time); a measurement one by one.
  if (SMOKE) scenarios.push(...(await Promise.all(names.map(start))));
  else for (const name of names) scenarios.push(await start(name));
  // No scenario is measured while a server works off a backlog (its own warm-up's or another's load).
  await Promise.all(scenarios.map((scenario) => scenario.settle()));
  // Rounds interleave the scenarios, so a burst of other load on the machine hits all of them.
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      process.stderr.write(`round ${round}/${rounds}: ${scenario.name}, ${SMOKE ? `${SMOKE_REQUESTS} requests` : `${seconds} s`}, ${connections} connections…\n`);
      // Each scenario is warmed up again right before it is measured, then left to send what that
      // queued: a server that had waited idle for the scenarios before it was measured slower than
      // the same server measured first, whatever it ran. Writes still in the page cache go to disk
      // before the measurement, not during it.
      await scenario.warm(`r${round}`);
      await scenario.settle();
      execFileSync('sync');
      // Every other server has settled: what the sink and the receiver get meanwhile is this scenario's.
      const before = { mails: sink.received(), events: receiver.received.length };
      const run = await scenario.measure(seconds, connections, `r${round}`);
      const whileLoaded = { mails: sink.received() - before.mails, events: receiver.received.length - before.events };
      scenario.runs.push({ ...run, whileLoaded, settled: await scenario.settle() });
    }
  }
  const rows: Array<Run & { name: ScenarioName; stats: Stats; created: number; walSyncs: number | null; rates: number[] }> = [];
  for (const scenario of scenarios) {
    const { created, walSyncs, ...stats } = await scenario.finish();
    // Per replica, the highest of all rounds.
    const peakRssBytes = scenario.runs[0]!.peakRssBytes.map((_, replica) => Math.max(...scenario.runs.map((run) => run.peakRssBytes[replica]!)));
    rows.push({ name: scenario.name, ...median(scenario.runs), stats, created, walSyncs, peakRssBytes, rates: scenario.runs.map((run) => run.result.requests.average) });
  }
  await sink.close();
  const noop = rows[0]!.result.requests.average;
  const table = rows.map(({ name, result, cpuMicros, benchCpuMicros, pgCpuMicros, stats, created, walSyncs, peakRssBytes, settled, whileLoaded, rates }) => ({
    scenario: name,
    'req/s': Math.round(result.requests.average),
    'rows/WAL flush': walSyncs === null || stats.rows === null ? '-' : perFlush(stats.rows, walSyncs),
    // Every round's, in order, when there were several: the median hides their spread.
    ...(rounds > 1 ? { 'each round': rates.map(Math.round).join(' / ') } : {}),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'non-2xx': failures(result),
    // Every 201 (warm-ups included) must be a row on disk. A run (a measurement or a warm-up) ends
    // with up to one request per connection in flight: stored, but its 201 not counted by autocannon.
    'rows ≥ 201s':
      stats.rows === null
        ? '-'
        : stats.rows >= created && stats.rows - created <= (2 * rounds + 1) * connections
          ? `yes (${stats.rows})`
          : `NO (${created} 201s, ${stats.rows} rows)`,
    'rows/commit': stats.batches ? (stats.jobs! / stats.batches).toFixed(1) : '-',
    // Server CPU (all its threads and processes) per answered request.
    'CPU µs/req': cpuMicros === null ? '-' : Math.round(cpuMicros / result.requests.total),
    // What else each request cost the two cores meanwhile: PostgreSQL's processes, and the bench's
    // own (the load generator, the SMTP sink, the receiver), which competes with the server here.
    'PG CPU µs/req': pgCpuMicros === null ? '-' : Math.round(pgCpuMicros / result.requests.total),
    'bench CPU µs/req': cpuMicros === null ? '-' : Math.round(benchCpuMicros / result.requests.total),
    'peak RSS MB': peakRssBytes.length === 0 ? '-' : peakRssBytes.map(megabytes).join(' / '),
    'sent while loaded': whileLoaded === undefined || cpuMicros === null ? '-' : `${whileLoaded.mails} mails, ${whileLoaded.events} events`,
    // After the load stopped: until every mail and webhook event it queued had gone out.
    'backlog sent in s': settled === undefined || cpuMicros === null ? '-' : `${(settled.ms / 1000).toFixed(1)}${settled.left > 0 ? ` (${settled.left} left)` : ''}`,
    'vs no-op': `${((100 * result.requests.average) / noop).toFixed(1)} %`,
  }));
  if (rounds > 1) console.log(`median of ${rounds} interleaved rounds per scenario`);
  if (SMOKE) console.log(`smoke run: ${SMOKE_REQUESTS} requests per scenario at ${connections} connections (the commit loop ${seconds} s), no target judged`);
  console.table([...table, ...skipped.map((name) => ({ scenario: name, ...skippedRow(INSTALL_HINT) }))]);
  for (const { name, stats, walSyncs } of rows) {
    if (walSyncs !== null) console.log(`${name}: ${walSyncs} WAL flushes (pg_stat_wal.wal_sync) for ${stats.rows} rows over the whole run`);
  }
  console.log(`confirmation mails the SMTP sink received: ${sink.received()}; webhook events the receiver verified: ${receiver.events().length} (${receiver.received.length - receiver.events().length} not verified)`);
  receiver.received.length = 0;
  const byName = (name: ScenarioName) => rows.find((row) => row.name === name);
  const sqlite = byName(SQLITE_DURABLE);
  const app = byName(NOOP_STORE);
  if (sqlite !== undefined && app !== undefined) {
    console.log(`durable storage alone: ${((100 * sqlite.result.requests.average) / app.result.requests.average).toFixed(1)} % of the same app with a no-op store`);
  }
  // The outbox's drain after an outage (issue 24), measured after the HTTP scenarios have stopped.
  console.table(await outboxDrainRows(SMOKE ? 100 : argument('--drain-mails', 2000)));
  console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} cores`);
  if (byName(CONTACTS) !== undefined) {
    // The storage part of the webhook's cost on the submission path, without HTTP or load generator.
    console.table(await webhookQueueCostRows(SMOKE ? 100 : argument('--queue-contacts', 20_000), SMOKE ? 1 : 3));
  }
  if (SMOKE) return;
  const targets: Array<{ target: string; measured: string; verdict: string }> = [];
  if (sqlite !== undefined) {
    const ratio = sqlite.result.requests.average / noop;
    targets.push({
      target: 'SQLite durable: ≥ 80 % of no-op, p99 < 20 ms, all 201',
      measured: `${(100 * ratio).toFixed(1)} %, p99 ${sqlite.result.latency.p99} ms`,
      verdict: verdict(ratio >= 0.8 && sqlite.result.latency.p99 < 20 && failures(sqlite.result) === 0),
    });
  }
  const loop = byName(PG_LOOP);
  const one = byName(PG_ONE);
  for (const name of [PG_ONE, PG_TWO] as const) {
    const row = byName(name);
    if (row === undefined) continue;
    const rate = row.result.requests.average;
    const rowsPerFlush = row.walSyncs && row.stats.rows !== null ? row.stats.rows / row.walSyncs : 0;
    const measured = `${Math.round(rate)} req/s, p99 ${row.result.latency.p99} ms, ${perFlush(row.stats.rows ?? 0, row.walSyncs ?? 0)} rows/WAL flush, ${failures(row.result)} non-2xx`;
    if (name === PG_ONE) {
      targets.push({
        target: `${name}: ≥ 5,000 req/s, p99 < 25 ms, ≥ 10 rows per WAL flush, all 201`,
        measured,
        verdict: verdict(rate >= 5000 && row.result.latency.p99 < 25 && rowsPerFlush >= 10 && failures(row.result) === 0),
      });
    } else {
      // Scaling out must not cost throughput: two replicas at least what one serves.
      const oneRate = one?.result.requests.average ?? 5000;
      targets.push({
        target: `${name}: ≥ 1 replica's req/s (${Math.round(oneRate)}), p99 < 30 ms, all 201`,
        measured,
        verdict: verdict(rate >= oneRate && row.result.latency.p99 < 30 && failures(row.result) === 0),
      });
    }
    if (loop !== undefined) {
      const times = rate / loop.result.requests.average;
      targets.push({ target: `  ≥ 5× the single-connection commit rate (${Math.round(loop.result.requests.average)}/s)`, measured: `${times.toFixed(1)}×`, verdict: verdict(times >= 5) });
    }
    const peak = Math.max(...row.peakRssBytes);
    targets.push({ target: '  peak RSS per replica under load ≤ 150 MB', measured: `${megabytes(peak)} MB`, verdict: verdict(peak <= 150 * 2 ** 20) });
  }
  const contacts = byName(CONTACTS);
  const queued = byName(CONTACTS_WEBHOOK_QUEUED);
  const hooked = byName(CONTACTS_WEBHOOK);
  const cpu = (row: NonNullable<typeof contacts>) => Math.round((row.cpuMicros ?? 0) / row.result.requests.total);
  if (contacts !== undefined && hooked !== undefined) {
    const share = hooked.result.requests.average / contacts.result.requests.average;
    targets.push({
      target: 'contacts with 1 webhook endpoint (its events delivered, giving way while loaded): ≥ 90 % of the req/s without, all 201',
      measured: `${(100 * share).toFixed(1)} % (CPU ${cpu(contacts)} → ${cpu(hooked)} µs/req, the deliveries included)`,
      verdict: verdict(share >= 0.9 && failures(hooked.result) === 0),
    });
  }
  if (contacts !== undefined && queued !== undefined) {
    // Where that cost is: queueing the event in the submission's transaction, or sending it.
    const share = queued.result.requests.average / contacts.result.requests.average;
    console.log(`of which storing the events alone (flags on the contact rows, none queued nor sent): ${(100 * share).toFixed(1)} % of the req/s without (CPU ${cpu(contacts)} → ${cpu(queued)} µs/req)`);
  }
  console.table(targets);
}

if (process.argv[2] === '--serve') await serveScenario(process.argv[3] as ScenarioName);
else await main().finally(stopEverything);
