/**
 * The benchmarks' smoke stage of `npm test` (`npm run bench:smoke`, tests/bench/run-smoke.ts)
 * fails when a benchmark breaks (issue 30): here `bench:build` runs in smoke mode through the
 * runner, as the stage runs it, on a copy of the content whose English strings lack a key the
 * home page uses, so the build it times fails.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { contentCopy } from '../helpers/dev-server.ts';

const broken = contentCopy();
afterAll(() => rmSync(dirname(broken), { recursive: true, force: true }));

describe('the benchmarks smoke stage', () => {
  it('fails, naming the benchmark and why, when a benchmark cannot run on the content it is given', () => {
    const english = join(broken, 'locales', 'en.json');
    const strings = JSON.parse(readFileSync(english, 'utf8')) as { hero: Record<string, unknown> };
    delete strings.hero.title;
    writeFileSync(english, JSON.stringify(strings, null, 2));

    const run = spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'tests', 'bench', 'run-smoke.ts'), 'bench:build', '--', '--content', broken], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });

    expect(run.status, run.stdout + run.stderr).not.toBe(0);
    expect(run.stdout).toMatch(/npm run bench:build -- --smoke --content \S+ \(exit 1,/);
    expect(run.stdout).toContain('translation key "hero.title" is used by a template but missing');
    expect(run.stdout).toMatch(/bench:build.*FAILED \(1\)/);
  }, 180_000);
});
