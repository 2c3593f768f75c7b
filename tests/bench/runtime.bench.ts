/**
 * `npm run bench:runtime`: what the compiled programs (compile.js) cost at start and at rest,
 * beside the same programs run through tsx as they were before. For each of "before" (the tree
 * just before compile.js was added, taken with `git archive` into a temporary folder that borrows
 * this node_modules/, and run by its own bin.js: tsx) and "after" (this working tree):
 *
 * - `ingest --help` and `sitegen --help`: wall time, median of N runs (min–max beside it), and
 *   the median CPU time, steadier on a busy machine; `node -e 0` beside them is the floor;
 * - `ingest serve` on a fresh SQLite file: time until /healthz answers 200, and its resident memory
 *   (VmRSS, worker threads included) with no traffic, 2 s after it answered and at rest, 12 s
 *   after (the target's figure): V8 keeps the young generation it grew while starting until its
 *   memory reducer runs, about 8 s after the last full collection (`--trace-gc` shows it as
 *   `Mark-Compact (reduce)`), and a service waiting for requests is at rest; every
 *   `ingest serve` runs with the node options of its tree's Dockerfile ENTRYPOINT (none today),
 *   as the image runs it;
 * - what the ingest image adds to its base, estimated from this checkout: the before image's
 *   production node_modules/ (all `dependencies`, as `npm ci --omit=dev` installs them, with
 *   better-sqlite3 trimmed as both Dockerfiles do), ingest/ and content/; the after image's
 *   build/ingest/, better-sqlite3, the writer thread, bin.js, compile.js and content/. The whole
 *   images' sizes come from the container proof (`npm run test:docker` prints them).
 *
 * - one replica on a throw-away PostgreSQL cluster (when PostgreSQL is installed) under autocannon's
 *   50 connections posting unique signups for 10 s (2 s with --smoke): its RSS at rest and its
 *   peak (sampled every 50 ms) against the target of ≤ 120 MB, with the rate it served.
 *
 * Then where the after service's memory goes: the file-backed part of its RSS (the node binary's
 * and better-sqlite3's pages, shared with every other node process) and the anonymous part, with
 * the V8 heap's figures, beside a bare node HTTP server at rest. Targets: idle RSS ≤ 80 MB,
 * `ingest --help` ≤ 150 ms, `sitegen --help` ≤ 200 ms, a replica under load ≤ 120 MB.
 *
 * Usage: npx tsx tests/bench/runtime.bench.ts [--smoke] [--runs 10] [--before REF]
 * (`--smoke`: 2 runs per --help, one idle start, a 2 s load, two packages alone, no target judged;
 * `--before`: another commit to compare.)
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBin, startPostgresCluster } from '../helpers/postgres-cluster.ts';
import { smtpSink } from './smtp-sink.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SMOKE = process.argv.includes('--smoke');
const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index < 0 ? undefined : process.argv[index + 1];
};
const RUNS = SMOKE ? 2 : Number(option('--runs') ?? 10);
const TARGETS = { idleRssMb: 80, ingestHelpMs: 150, sitegenHelpMs: 200, loadedRssMb: 120 };
const LOAD_SECONDS = SMOKE ? 2 : 10;

// autocannon is CommonJS without types of its own; only its result's counts are read here.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<{ requests: { average: number }; '2xx': number; non2xx: number; errors: number }>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => Math.round(bytes / 1048576);

/** The tree to compare with: `--before`, else the parent of the commit that added compile.js. */
function beforeTree(): { dir: string; ref: string } {
  const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'compile.js'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1);
  const ref = option('--before') ?? (added ? `${added}^` : 'HEAD');
  const dir = mkdtempSync(join(tmpdir(), 'bench-runtime-before-'));
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive "${ref}" | tar -x -C "${dir}"`]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, ref: execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim() };
}

interface Times {
  median: number;
  min: number;
  max: number;
  /** Median CPU time (user + system), which a busy machine disturbs less than the wall time. */
  cpu: number;
}

/**
 * Wall and CPU times of `node args` in `root`, after one unmeasured run (it compiles, or warms
 * the disk cache). The CPU time is the child's, as bash's `times` reports it.
 */
function startTimes(root: string, args: string[]): Times {
  const once = () => {
    const started = performance.now();
    const run = spawnSync('bash', ['-c', '"$@" >/dev/null || exit $?; times', 'bash', process.execPath, ...args], { cwd: root, encoding: 'utf8' });
    const wall = performance.now() - started;
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    const [user, system] = [...(run.stdout.trim().split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => (Number(m[1]) * 60 + Number(m[2])) * 1000);
    if (user === undefined || system === undefined) throw new Error(`no CPU times in ${JSON.stringify(run.stdout)}`);
    return { wall, cpu: user + system };
  };
  once();
  const runs = Array.from({ length: RUNS }, once);
  const walls = runs.map((r) => r.wall);
  return { median: median(walls), min: Math.min(...walls), max: Math.max(...walls), cpu: median(runs.map((r) => r.cpu)) };
}

interface Idle {
  readyMs: number;
  /** VmRSS 2 s after ready. */
  rssSoon: number;
  /** VmRSS at rest (REST_MS after ready); the file-backed and anonymous parts then. */
  rss: number;
  rssFile: number;
  rssAnon: number;
  heap?: { heapUsed: number; heapTotal: number; external: number };
}

/** The /proc status lines of a process, in bytes. */
function memoryOf(pid: number): { rss: number; rssFile: number; rssAnon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  return { rss: kb('VmRSS'), rssFile: kb('RssFile'), rssAnon: kb('RssAnon') };
}

/** How long after ready a process counts as at rest: past V8's memory reducer (about 8 s after the last full GC); 2 s in a smoke run. */
const REST_MS = SMOKE ? 2000 : 12_000;
const IDLE_COLUMN = `ingest serve idle RSS (at rest, ${REST_MS / 1000} s after ready)`;

/** Starts `node args` in `root` with env, waits for `ready()`, measures it 2 s later and at rest (REST_MS), stops it. */
async function idleProcess(root: string, args: string[], env: NodeJS.ProcessEnv, ready: () => Promise<boolean>): Promise<Idle> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    let readyMs: number | undefined;
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`${args.join(' ')} not ready after 60 s: ${stderr}`);
      if (await ready()) readyMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssSoon = memoryOf(child.pid!).rss;
    await new Promise((resolve) => setTimeout(resolve, REST_MS - 2000));
    return { readyMs, rssSoon, ...memoryOf(child.pid!) };
  } finally {
    child.kill('SIGKILL');
  }
}

let nextPort = 18_700 + (process.pid % 500);
const healthy = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/healthz`).then(
    (response) => response.status === 200,
    () => false,
  );

/**
 * The node options the image runs the service with: those between "node" and "ingest/bin.js" in
 * `root`'s Dockerfile ENTRYPOINT (none before they were added), so the bench measures what ships.
 */
function imageNodeOptions(root: string): string[] {
  const dockerfile = join(root, 'Dockerfile');
  if (!existsSync(dockerfile)) return [];
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(readFileSync(dockerfile, 'utf8'))?.[1];
  const words = line === undefined ? [] : (JSON.parse(line) as string[]);
  const node = words.indexOf('node');
  const bin = words.indexOf('ingest/bin.js');
  return node < 0 || bin < node ? [] : words.slice(node + 1, bin);
}

/** `ingest serve` of `root` on a fresh SQLite file; with `heapFile`, the V8 heap's figures too. */
async function idleIngest(root: string, heapFile?: string): Promise<Idle> {
  const data = mkdtempSync(join(tmpdir(), 'bench-runtime-data-'));
  const port = nextPort++;
  const preload = heapFile === undefined ? [] : ['--import', heapReporter(data, heapFile)];
  try {
    const idle = await idleProcess(root, [...imageNodeOptions(root), ...preload, join(root, 'ingest/bin.js'), 'serve'], { DATA_DIR: data, DATABASE_URL: `sqlite:${join(data, 'ingest.sqlite')}`, PORT: String(port), HOST: '127.0.0.1' }, healthy(port));
    return heapFile === undefined ? idle : { ...idle, heap: JSON.parse(readFileSync(heapFile, 'utf8')) as Idle['heap'] };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * A module for `node --import` that writes process.memoryUsage() to `file` every half second (the
 * last one is read at rest). Each report is written beside the file and renamed over it, so a read
 * never finds it half written (a plain rewrite truncates it first: the smoke run read it empty once
 * on a loaded machine, "Unexpected end of JSON input").
 */
function heapReporter(dir: string, file: string): string {
  const module = join(dir, 'heap-report.mjs');
  const next = JSON.stringify(`${file}.next`);
  writeFileSync(module, `import { renameSync, writeFileSync } from 'node:fs';\nsetInterval(() => { writeFileSync(${next}, JSON.stringify(process.memoryUsage())); renameSync(${next}, ${JSON.stringify(file)}); }, 500).unref();\n`);
  return module;
}

/** A bare node HTTP server at rest: the floor under any service's RSS. */
async function idleBareNode(): Promise<Idle> {
  const port = nextPort++;
  const script = `require('node:http').createServer((q, s) => s.end()).listen(${port}, '127.0.0.1')`;
  return idleProcess(ROOT, ['-e', script], {}, () => fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false));
}

// The service's runtime packages, each loaded alone (fastify with an app made ready, better-sqlite3
// with a database opened): what each adds to a bare node's V8 heap and anonymous memory.
const SERVICE_PACKAGES = ['fastify', 'zod', 'kysely', 'nodemailer', 'pg', 'prom-client', 'pino', '@fastify/rate-limit', 'better-sqlite3', 'commander'];

/** V8 heap used after two full GCs and anonymous RSS of a node that imported `name` (none: a bare node). */
function packageCost(name?: string): { heap: number; anon: number } {
  const use = name === 'fastify' ? 'await m.default().ready();' : name === 'better-sqlite3' ? "new m.default(':memory:');" : '';
  const script = `const m = ${name === undefined ? 'null' : `await import(${JSON.stringify(name)})`}; ${use} gc(); gc();
const anon = Number(/RssAnon:\\s+(\\d+)/.exec((await import('node:fs')).readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
console.log(JSON.stringify({ heap: process.memoryUsage().heapUsed, anon }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loading ${name} alone failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { heap: number; anon: number };
}

/**
 * One `ingest serve` replica of `root` (its own bin.js: tsx before, the bundle after) on a
 * throw-away PostgreSQL cluster, mail to an SMTP sink, under autocannon's 50 connections posting
 * unique signups for LOAD_SECONDS: its RSS at rest before the load and its peak during it
 * (sampled every 50 ms), and the load's rate and failures.
 */
async function replicaUnderLoad(root: string): Promise<{ idleRss: number; peakRss: number; rate: number; failed: number }> {
  const cluster = await startPostgresCluster();
  const sink = await smtpSink();
  const data = mkdtempSync(join(tmpdir(), 'bench-runtime-pg-'));
  const port = nextPort++;
  const env = {
    DATA_DIR: data,
    DATABASE_URL: cluster.url,
    SMTP_URL: sink.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_NEWSLETTER_DAILY_MAX: '1000000000',
    RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '1000000000',
  };
  const child = spawn(process.execPath, [...imageNodeOptions(root), join(root, 'ingest/bin.js'), 'serve'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const started = performance.now();
    while (!(await healthy(port)())) {
      if (child.exitCode !== null || performance.now() - started > 60_000) throw new Error(`ingest serve on PostgreSQL did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleRss = memoryOf(child.pid!).rss;
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(child.pid!).rss)), 50);
    let sequence = 0;
    // autocannon's answer is a thenable, not a Promise: no .finally().
    const result = await Promise.resolve(autocannon({
      url: `http://127.0.0.1:${port}/api/newsletter`,
      connections: 50,
      duration: LOAD_SECONDS,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request: object) => ({ ...request, body: JSON.stringify({ name: 'Bench Mark', email: `runtime-${sequence++}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'en' }) }) }],
    })).finally(() => clearInterval(sampler));
    return { idleRss, peakRss, rate: result.requests.average, failed: result.non2xx + result.errors };
  } finally {
    child.kill('SIGKILL');
    cluster.stop();
    await sink.close();
    rmSync(data, { recursive: true, force: true });
  }
}

/** Bytes under `path` (files and folders; links not followed). */
function sizeOf(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** The production dependency tree of `root`'s package.json (what `npm ci --omit=dev` installs), as folders of node_modules/. */
function productionPackages(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; optional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true && existsSync(join(ROOT, path)))
    .map(([path]) => path)
    .filter((path, _, all) => !all.some((other) => other !== path && path.startsWith(`${other}/node_modules/`)));
}

/** What each Dockerfile copies on top of its base image, in bytes. */
function imageLayers(before: string): { before: number; after: number } {
  const contentOf = (root: string) => sizeOf(join(root, 'content/site.json')) + sizeOf(join(root, 'content/locales'));
  // The Dockerfile keeps only the addon and its JavaScript of better-sqlite3 (its sources and objects go).
  const sqlite = ['lib', 'package.json', 'build/Release/better_sqlite3.node'].reduce((sum, part) => sum + sizeOf(join(ROOT, 'node_modules/better-sqlite3', part)), 0);
  const beforeModules = productionPackages(before)
    .filter((path) => path !== 'node_modules/better-sqlite3')
    .reduce((sum, path) => sum + sizeOf(join(ROOT, path)), sqlite);
  const after =
    sizeOf(join(ROOT, 'build/ingest')) +
    sqlite +
    sizeOf(join(ROOT, 'node_modules/bindings')) +
    sizeOf(join(ROOT, 'node_modules/file-uri-to-path')) +
    sizeOf(join(ROOT, 'ingest/store/sqlite/writer-thread.js')) +
    sizeOf(join(ROOT, 'ingest/bin.js')) +
    sizeOf(join(ROOT, 'compile.js')) +
    contentOf(ROOT);
  return { before: beforeModules + sizeOf(join(before, 'ingest')) + contentOf(before), after };
}

const { dir: before, ref } = beforeTree();
try {
  execFileSync(process.execPath, [join(ROOT, 'compile.js')], { stdio: 'inherit' });
  const rows: Array<Record<string, string>> = [];
  const variants = [
    { name: `before (${ref}, tsx)`, root: before },
    { name: 'after (compiled)', root: ROOT },
  ];
  const results = [];
  for (const { name, root } of variants) {
    const ingestHelp = startTimes(root, [join(root, 'ingest/bin.js'), '--help']);
    const sitegenHelp = startTimes(root, [join(root, 'cli/bin.js'), '--help']);
    const idle = [];
    for (let i = 0; i < (SMOKE ? 1 : 3); i++) idle.push(await idleIngest(root));
    results.push({ name, ingestHelp, sitegenHelp, idle });
  }
  const layers = imageLayers(before);
  const span = (t: Times) => `${Math.round(t.median)} ms (${Math.round(t.min)}–${Math.round(t.max)}), CPU ${Math.round(t.cpu)} ms`;
  // node itself, doing nothing: what any start costs on this machine at this moment.
  const bare = startTimes(ROOT, ['-e', '0']);
  for (const [index, { name, ingestHelp, sitegenHelp, idle }] of results.entries()) {
    rows.push({
      '': name,
      'ingest serve RSS 2 s after ready': `${mb(median(idle.map((i) => i.rssSoon)))} MB`,
      [IDLE_COLUMN]: `${mb(median(idle.map((i) => i.rss)))} MB`,
      'serve ready': `${Math.round(median(idle.map((i) => i.readyMs)))} ms`,
      'ingest --help': span(ingestHelp),
      'sitegen --help': span(sitegenHelp),
      'image adds to its base': `${mb(index === 0 ? layers.before : layers.after)} MB`,
    });
  }
  rows.push({ '': 'node -e 0 (floor)', 'ingest serve RSS 2 s after ready': '', [IDLE_COLUMN]: '', 'serve ready': '', 'ingest --help': span(bare), 'sitegen --help': span(bare), 'image adds to its base': '' });
  if (!SMOKE) {
    const after = results[1]!;
    rows.push({
      '': 'target',
      'ingest serve RSS 2 s after ready': '',
      [IDLE_COLUMN]: `≤ ${TARGETS.idleRssMb} MB — ${mb(median(after.idle.map((i) => i.rss))) <= TARGETS.idleRssMb ? 'met' : 'NOT met'}`,
      'serve ready': '',
      'ingest --help': `≤ ${TARGETS.ingestHelpMs} ms — ${after.ingestHelp.median <= TARGETS.ingestHelpMs ? 'met' : 'NOT met'}`,
      'sitegen --help': `≤ ${TARGETS.sitegenHelpMs} ms — ${after.sitegenHelp.median <= TARGETS.sitegenHelpMs ? 'met' : 'NOT met'}`,
      'image adds to its base': '',
    });
  }
  if (postgresBin() === null) {
    console.log('\none replica on PostgreSQL under load: left out, PostgreSQL is not installed (Debian: apt-get install -y postgresql)');
  } else {
    const loaded = [];
    for (const { name, root } of variants) loaded.push({ name, ...(await replicaUnderLoad(root)) });
    console.log(`\none replica on PostgreSQL, autocannon -c 50 -d ${LOAD_SECONDS} posting unique signups (mail to an SMTP sink)`);
    console.table(
      Object.fromEntries(
        loaded.map(({ name, idleRss, peakRss, rate, failed }) => [
          name,
          {
            'RSS at rest': `${mb(idleRss)} MB`,
            'peak RSS under load': `${mb(peakRss)} MB${SMOKE || name.startsWith('before') ? '' : ` (target ≤ ${TARGETS.loadedRssMb} MB — ${mb(peakRss) <= TARGETS.loadedRssMb ? 'met' : 'NOT met'})`}`,
            'req/s': Math.round(rate),
            'not 2xx': failed,
          },
        ]),
      ),
    );
  }
  console.log(`\nnode ${process.version}, ${RUNS} runs per --help, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.table(rows);

  // Where the compiled service's memory goes, beside a bare node HTTP server.
  const scratch = mkdtempSync(join(tmpdir(), 'bench-runtime-heap-'));
  try {
    const service = await idleIngest(ROOT, join(scratch, 'heap.json'));
    const bare = await idleBareNode();
    const split = (idle: Idle) => ({
      RSS: `${mb(idle.rss)} MB`,
      'file-backed (node binary, addons)': `${mb(idle.rssFile)} MB`,
      anonymous: `${mb(idle.rssAnon)} MB`,
      'V8 heap used / reserved': idle.heap ? `${mb(idle.heap.heapUsed)} / ${mb(idle.heap.heapTotal)} MB` : '',
      'outside V8 heap (buffers, SQLite)': idle.heap ? `${mb(idle.heap.external)} MB` : '',
    });
    console.log('\nwhere the idle memory goes');
    console.table({ 'ingest serve (compiled)': split(service), 'bare node HTTP server': split(bare) });
    const floor = packageCost();
    const costs = Object.fromEntries(
      // A smoke run loads two, enough to show the table still works.
      SERVICE_PACKAGES.slice(0, SMOKE ? 2 : undefined).map((name) => {
        const cost = packageCost(name);
        return [name, { 'V8 heap added': `${((cost.heap - floor.heap) / 1048576).toFixed(1)} MB`, 'anonymous memory added': `${((cost.anon - floor.anon) / 1048576).toFixed(1)} MB` }];
      }),
    );
    console.log(`\neach runtime package loaded alone into a bare node (${(floor.heap / 1048576).toFixed(1)} MB heap, ${mb(floor.anon)} MB anonymous)`);
    console.table(costs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
} finally {
  rmSync(before, { recursive: true, force: true });
}
