/**
 * vitest globalSetup: a folder for this run in which the real site is built once, by the first
 * test file that asks for it (`builtSite()`), and read by every other file of the run; the folder
 * goes at the end of the run. And `dist/` brought up to date before any file starts, as `npm
 * start` builds it: the tests that start `npm start` then find nothing to write, so `dist/` does
 * not change under a file that checks `sitegen dev` never writes there
 * (tests/cli/dev/dev-command.test.ts, which failed when `npm start`'s build ran beside it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT } from '../../cli/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's shared build of the real site goes (see tests/helpers/built-site.ts). */
    sharedBuildDir: string;
  }
}

/** Provides the run's folder; returns its removal. */
export default function setup(project: TestProject): () => void {
  const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), 'build'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`sitegen build (dist/, as npm start builds it) failed before the tests:\n${build.stdout}${build.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-test-run-'));
  project.provide('sharedBuildDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
