/**
 * vitest globalSetup: a folder for this run in which the real site is built once, by the first
 * test file that asks for it (`builtSite()`), and read by every other file of the run. Costs
 * nothing in a run that builds no site; the folder goes at the end of the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's shared build of the real site goes (see tests/helpers/built-site.ts). */
    sharedBuildDir: string;
  }
}

/** Provides the run's folder; returns its removal. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-test-run-'));
  project.provide('sharedBuildDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
