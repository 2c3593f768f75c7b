/**
 * `npm run bench:smoke`, a stage of `npm test` (issue 30): runs every `bench:*` script of
 * package.json with `--smoke`, so a benchmark that no longer runs fails the suite the day it
 * breaks instead of the day someone next measures. A new `bench:*` script is in the stage by
 * being in package.json, and must accept `--smoke`.
 *
 * The benchmarks run at the same time, each in a process group of its own, and each one's output
 * is printed in one piece when it ends: a smoke run judges no target, so they may share the
 * machine, and the stage takes as long as the slowest of them rather than their sum. A benchmark
 * that exits non-zero, or runs past `TIMEOUT_MS`, fails the stage; a table of every benchmark's
 * exit and wall time ends the output.
 *
 * Usage: npx tsx tests/bench/run-smoke.ts [bench:build …] [-- args every benchmark gets]
 * @example npx tsx tests/bench/run-smoke.ts bench:build -- --content /tmp/broken-content
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../cli/paths.ts';

/** A benchmark that runs longer than this in smoke mode is stopped and fails the stage. */
const TIMEOUT_MS = 5 * 60_000;

/** What one benchmark's smoke run came to. */
interface SmokeResult {
  script: string;
  exit: number | string;
  seconds: number;
  output: string;
}

/** The `bench:*` scripts of package.json, this runner's own left out. */
function benchScripts(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return Object.keys(scripts).filter((name) => name.startsWith('bench:') && name !== 'bench:smoke');
}

/** The process groups still running, stopped with this runner when it is interrupted (they do not share its terminal). */
const running = new Set<number>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const group of running) process.kill(-group, 'SIGKILL');
    process.exit(130);
  });
}

/** Runs `npm run <script> -- --smoke <args>` as a user would, collecting what it prints. */
function smoke(script: string, args: readonly string[]): Promise<SmokeResult> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script, '--', '--smoke', ...args], { cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The whole group: the benchmark's servers, browsers and clusters with it.
    process.kill(-child.pid!, 'SIGKILL');
  }, TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid!);
      const exit = timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : (code ?? String(signal));
      resolve({ script, exit, seconds: Math.round((performance.now() - started) / 100) / 10, output });
    });
  });
}

const separator = process.argv.indexOf('--');
const chosen = process.argv.slice(2, separator < 0 ? undefined : separator);
const args = separator < 0 ? [] : process.argv.slice(separator + 1);
const known = benchScripts();
const unknown = chosen.filter((script) => !known.includes(script));
if (unknown.length > 0) throw new Error(`not a bench:* script of package.json: ${unknown.join(', ')} (there are ${known.join(', ')})`);
const scripts = chosen.length > 0 ? chosen : known;

const started = performance.now();
const results = await Promise.all(
  scripts.map(async (script) => {
    const result = await smoke(script, args);
    process.stdout.write(`\n== npm run ${script} -- ${['--smoke', ...args].join(' ')} (exit ${result.exit}, ${result.seconds} s)\n${result.output}`);
    return result;
  }),
);
console.log(`\nbenchmarks in smoke mode, at the same time: ${Math.round((performance.now() - started) / 1000)} s in all\n`);
console.table(results.map(({ script, exit, seconds }) => ({ script, 'wall s': seconds, result: exit === 0 ? 'ran' : `FAILED (${exit})` })));
if (results.some((result) => result.exit !== 0)) process.exitCode = 1;
