/**
 * `npm run bench:ingest -- --writer`: where the SQLite writer should live. Each variant runs in a
 * child process of its own on a fresh file with `synchronous=FULL`, behind the service's group
 * commit (`DEFAULT_GROUP_COMMIT`), and is measured twice:
 *
 * - at rest: the process's resident memory (all threads) once the writer is ready, beside a
 *   process with the same database open and no writer ("none"), so the difference is the
 *   writer's own cost (for a worker: a second V8 isolate, its heap and its copy of better-sqlite3's
 *   bindings);
 * - under load: 50 submitters, each spending `--request-cpu-us` (default 40) of CPU on the main
 *   thread, as a request's HTTP parsing and validation would, then sending a signup's three writes
 *   (an `INSERT … ON CONFLICT DO NOTHING RETURNING` that ends the job for a known address, then
 *   two inserts) as one job, and the next one as soon as the last is committed, for `--duration` seconds: rows committed per
 *   second, CPU per row (all threads), rows per commit, peak RSS, and the p99 delay of the main
 *   thread's event loop, which is what an HTTP request in flight waits for (on the main thread,
 *   each commit's fsync stops the loop).
 *
 * Variants: the main thread, as production runs it; the worker thread it ran in before
 * (`ingest/worker-writer.ts`); the worker with small V8 limits (`resourceLimits`).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DEFAULT_GROUP_COMMIT, GroupCommit } from '../../ingest/store/group-commit.ts';
import { type SqliteWriter, startSqliteWriter, type WriteStep } from '../../ingest/store/sqlite/writer.ts';
import { workerWriter } from './ingest/worker-writer.ts';

/** The variants in table order; `none` opens the database and starts no writer. */
const VARIANTS = {
  none: null,
  'main thread (production)': (path: string) => startSqliteWriter(path, STATEMENTS),
  'worker thread': (path: string) => workerWriter(path, STATEMENTS),
  'worker, resourceLimits 16 MB old / 1 MB young': (path: string) => workerWriter(path, STATEMENTS, { resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 1 } }),
} satisfies Record<string, ((path: string) => SqliteWriter) | null>;
type Variant = keyof typeof VARIANTS;

const SCHEMA = [
  'CREATE TABLE subscriber (email TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL)',
  'CREATE TABLE consent (id INTEGER PRIMARY KEY, email TEXT NOT NULL, wording TEXT NOT NULL, at TEXT NOT NULL)',
  'CREATE TABLE outbox (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, email TEXT NOT NULL, due_at TEXT NOT NULL)',
];
const STATEMENTS = [
  'INSERT INTO subscriber (email, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING email',
  'INSERT INTO consent (email, wording, at) VALUES (?, ?, ?)',
  'INSERT INTO outbox (kind, email, due_at) VALUES (?, ?, ?)',
];
const WORDING = 'I agree to receive the newsletter and have read the privacy policy. '.repeat(3);

/** What a child reports. */
interface Figures {
  idleRssBytes: number;
  rows: number;
  seconds: number;
  cpuMicros: number;
  batches: number;
  peakRssBytes: number;
  loopDelayP99Ms: number;
}

const rss = () => process.memoryUsage.rss();
const settle = async () => {
  // Twice the maintenance period: the worker has started, prepared and idled.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  (globalThis as { gc?: () => void }).gc?.();
};

/** The child side: opens the file, starts the variant's writer, measures it at rest and under load. */
async function child(variant: Variant, seconds: number, connections: number, requestCpuMicros: number): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-writer-'));
  const path = join(dir, 'w.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  for (const statement of SCHEMA) db.exec(statement);
  const start = VARIANTS[variant];
  if (start === null) {
    await settle();
    db.close();
    rmSync(dir, { recursive: true, force: true });
    return { idleRssBytes: rss(), rows: 0, seconds, cpuMicros: 0, batches: 0, peakRssBytes: rss(), loopDelayP99Ms: 0 };
  }
  const writer = start(path);
  await writer.ready;
  const commits = new GroupCommit<WriteStep[], unknown>(async (jobs) => (await writer.execute(jobs)).map((value) => ({ ok: true, value })), DEFAULT_GROUP_COMMIT);
  await settle();
  const idleRssBytes = rss();
  let peakRssBytes = idleRssBytes;
  const sampler = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, rss())), 50);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let sequence = 0;
  let stop = false;
  const submitter = async () => {
    while (!stop) {
      // A request arrives as I/O, in a later turn of the loop (and a main-thread writer, which
      // settles its jobs without I/O, would otherwise never let the timer that ends the run fire).
      await new Promise((resolve) => setImmediate(resolve));
      // The request's own work, which a commit on the main thread delays.
      const until = performance.now() + requestCpuMicros / 1000;
      while (performance.now() < until);
      const email = `bench-${sequence++}@example.com`;
      const at = new Date().toISOString();
      await commits.submit([
        [0, [email, 'Bench Mark', at], true],
        [1, [email, WORDING, at], false],
        [2, ['newsletter_confirm', email, at], false],
      ]);
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  delay.enable();
  const running = Array.from({ length: connections }, submitter);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  stop = true;
  await Promise.all(running);
  delay.disable();
  const used = process.cpuUsage(cpu);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await commits.close();
  await writer.close();
  const rows = (db.prepare('SELECT count(*) AS n FROM subscriber').get() as { n: number }).n;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    idleRssBytes,
    rows,
    seconds: elapsed,
    cpuMicros: used.user + used.system,
    batches: commits.stats.batches,
    peakRssBytes,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
  };
}

function inChild(variant: Variant, seconds: number, connections: number, requestCpuMicros: number): Promise<Figures> {
  const process_ = fork(fileURLToPath(import.meta.url), ['--writer-child', variant, String(seconds), String(connections), String(requestCpuMicros)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    process_.once('message', (figures: Figures) => resolve(figures));
    process_.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`writer bench child ${variant} exited with ${code}`))));
  });
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * Runs every variant `rounds` times (interleaved) in child processes and returns the table's rows,
 * each variant's median round by rows/s.
 */
export async function writerRows(seconds: number, connections: number, rounds: number, requestCpuMicros: number): Promise<Array<Record<string, string | number>>> {
  const names = Object.keys(VARIANTS) as Variant[];
  const runs = new Map<Variant, Figures[]>(names.map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const name of names) {
      process.stderr.write(`writer round ${round}/${rounds}: ${name}, ${seconds} s, ${connections} submitters…\n`);
      runs.get(name)!.push(await inChild(name, seconds, connections, requestCpuMicros));
    }
  }
  const median = (figures: Figures[]) => [...figures].sort((a, b) => a.rows / a.seconds - b.rows / b.seconds)[Math.floor(figures.length / 2)]!;
  const idleOf = (figures: Figures[]) => [...figures.map((each) => each.idleRssBytes)].sort((a, b) => a - b)[Math.floor(figures.length / 2)]!;
  const baseline = idleOf(runs.get('none')!);
  return names.map((name) => {
    const figures = median(runs.get(name)!);
    const idle = idleOf(runs.get(name)!);
    if (name === 'none') return { writer: `${name} (database open, no writer)`, 'idle RSS MB': mb(idle), 'vs none MB': '-', 'rows/s': '-', 'CPU µs/row': '-', 'rows/commit': '-', 'loop delay p99 ms': '-', 'peak RSS MB': '-' };
    return {
      writer: name,
      'idle RSS MB': mb(idle),
      'vs none MB': `${idle >= baseline ? '+' : '−'}${mb(Math.abs(idle - baseline))}`,
      'rows/s': Math.round(figures.rows / figures.seconds),
      'CPU µs/row': Math.round(figures.cpuMicros / figures.rows),
      'rows/commit': (figures.rows / Math.max(1, figures.batches)).toFixed(1),
      'loop delay p99 ms': figures.loopDelayP99Ms.toFixed(1),
      'peak RSS MB': mb(figures.peakRssBytes),
    };
  });
}

if (process.argv[2] === '--writer-child') {
  const [variant, seconds, connections, requestCpuMicros] = process.argv.slice(3) as [Variant, string, string, string];
  process.send!(await child(variant, Number(seconds), Number(connections), Number(requestCpuMicros)));
  process.disconnect();
}
