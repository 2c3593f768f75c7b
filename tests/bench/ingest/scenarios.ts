/**
 * The scenarios of `npm run bench:ingest` (tests/bench/ingest.bench.ts), started and stopped: each
 * server a process of its own (the bench script forked with `--serve NAME`), PostgreSQL on a
 * throw-away cluster per scenario, the single-connection commit loop as a scenario of its own; one
 * measured round at a time, and each scenario's counters at the end.
 *
 *   const scenario = await startScenario(PG_ONE, 50, sink.url, 2, webhookEnv);
 *   const run = await scenario.measure(10, 50, '1'); … ; const totals = await scenario.finish();
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PostgresCluster } from '../../helpers/postgres-cluster.ts';
import { SCENARIOS, type ScenarioName, type Settled, type Stats, type Usage } from '../ingest-servers.ts';
import { type AutocannonResult, load } from '../ingest-load.ts';
import { clusterCounts, clusterCpuMicros, commitLoop, durabilitySettings, migratedCluster, topStatements } from '../postgres-commits.ts';
import { figure } from '../smoke.ts';

/** The bench script, which each scenario's server runs as with `--serve NAME`. */
const BENCH_SCRIPT = fileURLToPath(new URL('../ingest.bench.ts', import.meta.url));

/** One measured round of a scenario. */
export interface Run {
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
export interface Scenario {
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

/** Everything the scenarios start, stopped again however a run ends: a failed run left replicas and clusters running. */
const started = { children: [] as ChildProcess[], clusters: [] as PostgresCluster[] };

/** Stops every server and cluster the scenarios started. */
export function stopScenarios(): void {
  for (const child of started.children) child.kill();
  for (const cluster of started.clusters) cluster.stop();
}

function startChild(name: ScenarioName, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(BENCH_SCRIPT, ['--serve', name, ...process.argv.slice(2)], {
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

/**
 * Starts the scenario (for PostgreSQL on a cluster of its own; mail goes to `smtpUrl`, and
 * `webhookEnv` names the endpoint its events go to) and warms it up for `warmUpSeconds`.
 */
export async function startScenario(name: ScenarioName, connections: number, smtpUrl: string, warmUpSeconds: number, webhookEnv: Record<string, string>): Promise<Scenario> {
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
