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
 * After the PostgreSQL scenarios, the PostgreSQL store alone: 50 callers hand it `--store-signups`
 * (30,000) double opt-in signups, without HTTP, mails or load generator; signups/s, CPU per signup
 * here and in PostgreSQL, rows per commit and per WAL flush (`pg-signup-store.ts`).
 *
 * Usage: npx tsx tests/bench/ingest.bench.ts [--smoke | --quick | --writer [--request-cpu-us 40]] [--only TEXT] [--rounds 1] [--duration 10] [--connections 50] [--pg-statements] [--store-signups 30000]
 * (`--only contacts`: the no-op baseline and the scenarios whose names contain "contacts";
 * `--cpu-prof DIR`: each server's CPU profile of each measured round, for Chrome's DevTools)
 * (`--smoke`: 50 requests to every scenario at 10 connections after 10 to warm up, the commit
 * loop for 0.5 s, no target judged;
 * `--rounds 3` interleaves the scenarios three times and reports each one's median round;
 * `--max-delay-ms N` overrides SQLite's group commit batch interval, `--pg-pool-max N` the
 * PostgreSQL pool of each replica, PG_POOL_MAX's default otherwise; `--pg-setting name=value`,
 * repeatable, sets a server setting of each PostgreSQL scenario's cluster.)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { INSTALL_HINT, postgresBin } from '../helpers/postgres-cluster.ts';
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
  type Stats,
} from './ingest-servers.ts';
import { type AutocannonResult, BENCH_CAPTCHA_SECRET, SMOKE_REQUESTS } from './ingest-load.ts';
import { smtpSink } from './smtp-sink.ts';
import { type WebhookReceiver, webhookReceiver } from '../helpers/webhook-receiver.ts';
import { outboxDrainRows } from './outbox-drain.ts';
import { pgSignupStoreRows } from './pg-signup-store.ts';
import { SMOKE, skippedRow } from './smoke.ts';
import { writerRows } from './sqlite-writer.ts';
import { type Run, type Scenario, startScenario, stopScenarios } from './ingest/scenarios.ts';
import { webhookQueueCostRows } from './webhook-queue-cost.ts';

/**
 * The endpoint the webhook scenario delivers to: a real receiver in the bench process that verifies
 * each signature and answers 204, as a CRM's inbound hook would; its address and secret go to the
 * servers with the captcha key (`startScenario`).
 */
let receiver: WebhookReceiver | undefined;

/** Everything a run starts, stopped again however it ends. */
function stopEverything(): void {
  void receiver?.close();
  stopScenarios();
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
  const webhookEnv = { BENCH_CAPTCHA_SECRET, BENCH_WEBHOOK_URL: receiver.url, BENCH_WEBHOOK_SECRET: receiver.secret };
  const scenarios: Array<Scenario & { runs: Run[] }> = [];
  const start = async (name: ScenarioName) => ({ ...(await startScenario(name, connections, sink.url, SMOKE ? 0.5 : 2, webhookEnv)), runs: [] as Run[] });
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
  if (byName(PG_ONE) !== undefined || skipped.includes(PG_ONE)) {
    // The PostgreSQL store's own cost per signup, without HTTP, mails or load generator (issue 45).
    console.table(await pgSignupStoreRows(SMOKE ? 100 : argument('--store-signups', 30_000)));
  }
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
