/**
 * Temporary folders that a test removes when it finishes, so runs leave nothing in the system's
 * temporary folder. `testOutDir` puts a build's output inside a parent of its own: the build cache
 * that `sitegen build` keeps beside its output (`.sitegen-cache/`, docs/sitegen.md) then goes with
 * it, instead of piling up in /tmp/.sitegen-cache.
 *
 *   const contentDir = testFolder('content-');   // removed when the running test ends
 *   const outDir = testOutDir();                  // <new temp folder>/dist, removed likewise
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A new temporary folder named `prefix…`, removed when the running test finishes. */
export function testFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A build output folder (not created yet) inside a temporary parent of its own, removed with it when the running test finishes. */
export function testOutDir(prefix = 'out-'): string {
  return join(testFolder(prefix), 'dist');
}
