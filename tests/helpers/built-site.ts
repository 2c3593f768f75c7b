import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, inject } from 'vitest';
import { buildSite, type BuildResult } from '../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { textOf } from './html-text.ts';

/** How long a test file waits for the build another file of the run is making. */
const WAIT_FOR_BUILD_MS = 180_000;

let cached: Promise<{ outDir: string; result: BuildResult }> | undefined;

/**
 * The real site, built once per test run (shared by every test file, read-only) into the run's
 * folder (`shared-build-setup.ts`): the first file to ask builds it, the others wait for its
 * result. Tests that change a build make their own (`buildSite` into a temp folder).
 */
export function builtSite(): Promise<{ outDir: string; result: BuildResult }> {
  cached ??= sharedBuild(inject('sharedBuildDir'));
  return cached;
}

async function sharedBuild(runDir: string): Promise<{ outDir: string; result: BuildResult }> {
  const outDir = join(runDir, 'site');
  const done = join(runDir, 'site-result.json');
  let builder = true;
  try {
    mkdirSync(join(runDir, 'site-lock'));
  } catch {
    builder = false;
  }
  if (builder) {
    let outcome: { result?: BuildResult; error?: string };
    try {
      outcome = { result: await buildSite({ ...DEFAULT_PATHS, outDir, now: new Date('2026-03-01T00:00:00Z') }) };
    } catch (error) {
      outcome = { error: String((error as Error).stack ?? error) };
    }
    writeFileSync(`${done}.tmp`, JSON.stringify(outcome));
    renameSync(`${done}.tmp`, done);
  }
  const started = Date.now();
  while (!existsSync(done)) {
    if (Date.now() - started > WAIT_FOR_BUILD_MS) throw new Error(`the shared site build in ${runDir} did not finish within ${WAIT_FOR_BUILD_MS / 1000} s`);
    await sleep(100);
  }
  const outcome = JSON.parse(readFileSync(done, 'utf8')) as { result?: BuildResult; error?: string };
  if (outcome.result === undefined) throw new Error(`the shared site build failed: ${outcome.error}`);
  return { outDir, result: outcome.result };
}

/**
 * Builds the site before the tests of the calling file or `describe` block, failing them if the
 * build reports errors, and gives its output folder once built: `const built = useBuiltSite();`
 * then `readBuilt(built.outDir, 'index.html')` inside a test.
 */
export function useBuiltSite(): { readonly outDir: string } {
  const built = { outDir: '' };
  beforeAll(async () => {
    const { outDir, result } = await builtSite();
    expect(result.errors).toEqual([]);
    built.outDir = outDir;
  });
  return built;
}

/** Reads a built file as text. */
export function readBuilt(outDir: string, file: string): string {
  return readFileSync(join(outDir, file), 'utf8');
}

/** The visible text of an HTML document: tags, scripts and styles removed, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return textOf(html.replace(/<head>[\s\S]*?<\/head>/, ' ').replace(/<(script|style)[\s\S]*?<\/\1>/g, ' '));
}

/** Collapses every kind of space (French typography uses narrow no-break spaces) to one plain space. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The value of the first attribute `attr` on a tag matching `tagPattern`, e.g. the canonical href. */
export function attributeOf(html: string, tagPattern: RegExp, attr: string): string | undefined {
  const tag = html.match(tagPattern)?.[0];
  return tag?.match(new RegExp(`${attr}="([^"]*)"`))?.[1];
}
