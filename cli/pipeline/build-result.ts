/**
 * What a build is asked to do and what it did: its options, its stages and its result, shared by
 * the build (build-site.ts) and the command that prints it (main.ts). The record of the last build
 * (cache/build-record.ts) owns the options it keys and reads the result through types of its own.
 */
import type { Problem } from '../site/errors.ts';
import type { Lang } from '../site/languages.ts';
import type { RoutePageId } from '../site/routes.ts';
import type { RecordedOptions } from './cache/build-record.ts';
import type { BuildPlan } from './plan/build-plan.ts';

/** What a build is asked to do: the options the build record keys (the folders, languages, site URL, clock, `--allow-missing`), and whether to use the cache. */
export interface BuildOptions extends RecordedOptions {
  /**
   * Use the records of the last build (default true): the pages whose inputs did not change are
   * neither rendered nor written again (`cache/output-store.ts`). False (`--no-cache`) forgets them
   * and builds every page into a fresh folder (sink/fresh-folder.ts), recording what it wrote.
   */
  cache?: boolean;
}

/** One file the build wrote. */
export interface BuiltPage {
  path: string;
  file: string;
  lang: Lang;
  page: RoutePageId | 'notFound';
  bytes: number;
  /** False for a page the build cache kept as the previous build wrote it. */
  rendered: boolean;
}

/**
 * The build's stages, in the order they run; `sitegen build --timings` prints how long each took.
 * Pages are written and compressed in other threads during render and verify: `write` is this
 * thread's share (handing them over), `flush` the wait for the rest after `host` and putting
 * the new output in place; `load` includes reading what the build cache knows. A stage the cache
 * made unnecessary (`verify`, `host`) is left out.
 */
export type BuildStage = 'load' | 'assets' | 'render' | 'write' | 'verify' | 'host' | 'flush';

/** What a build did: the pages written, and problems found (errors make the build fail). */
export interface BuildResult {
  pages: BuiltPage[];
  assets: { css: string; cssBytes: number; islands: { file: string; bytes: number }[] };
  errors: Problem[];
  warnings: Problem[];
  durationMs: number;
  /** How many files the build wrote into the folder it published; 0 when the output already held this build, which then publishes nothing. */
  filesWritten: number;
  /** How many pages' social cards were rendered (the others came from the card cache); absent when the build did not get that far. */
  cardsRendered?: number;
  /** What the build decided for each page and for the output checks, with the reasons (`sitegen build --explain`); absent when the build failed. */
  plan?: BuildPlan;
  /** Milliseconds spent in each stage that ran (a build that fails early has fewer). */
  stageMs: Partial<Record<BuildStage, number>>;
}

/** Runs `step`, adding its duration to `stageMs[stage]`. */
export function timed<T>(stageMs: BuildResult['stageMs'], stage: BuildStage, step: () => T): T {
  const started = performance.now();
  try {
    return step();
  } finally {
    stageMs[stage] = (stageMs[stage] ?? 0) + performance.now() - started;
  }
}

/** Adds the duration of an asynchronous `step` to `stageMs[stage]`. */
export async function timedAsync<T>(stageMs: BuildResult['stageMs'], stage: BuildStage, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    stageMs[stage] = (stageMs[stage] ?? 0) + performance.now() - started;
  }
}
