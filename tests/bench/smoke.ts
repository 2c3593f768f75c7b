/**
 * What every benchmark shares for its smoke mode (issue 30): `--smoke` runs each scenario end to
 * end with the fewest rounds and smallest sizes, prints the table and judges no target, so that
 * `npm test` (through `npm run bench:smoke`) notices a benchmark that no longer runs. A scenario
 * whose tool is missing here (Hugo, PostgreSQL, Lighthouse, Java) says so in its row; anything
 * else that goes wrong fails the benchmark with a non-zero exit.
 */
import { spawnSync } from 'node:child_process';

/** True when the benchmark was started with `--smoke`. */
export const SMOKE = process.argv.includes('--smoke');

/** The value of `--flag VALUE` on the command line, or undefined. */
export function option(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index < 0 ? undefined : process.argv[index + 1];
}

/** `columns` in a full run, nothing in a smoke run: a smoke run's figures say nothing about a target. */
export function targetColumns<T extends object>(columns: T): T | Record<string, never> {
  return SMOKE ? {} : columns;
}

/** The row of a scenario that cannot run on this machine, saying why and what would make it run. */
export function skippedRow(reason: string): { skipped: string } {
  return { skipped: reason };
}

/** True when `command` can be started here (it is on the PATH or an existing file). */
export function installed(command: string, args: string[] = ['--version']): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).error === undefined;
}

/**
 * `value` when it is a finite number of at least `min`; throws otherwise, so a benchmark whose
 * reading of a tool's output has rotted fails instead of printing NaN or 0.
 *
 * @example figure(Number(stdout.match(/built (\d+) pages/)?.[1]), 'pages built', 1) // 183, or throws
 */
export function figure(value: number, what: string, min = 0): number {
  if (!Number.isFinite(value) || value < min) throw new Error(`${what}: got ${value}, expected a number ≥ ${min}; has the output this benchmark reads changed?`);
  return value;
}
