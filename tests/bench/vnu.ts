import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../cli/paths.ts';

/** One message of the W3C Nu HTML checker. */
export interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
}

/**
 * Runs the Nu HTML checker (npm `vnu-jar`, needs Java 11+) on every `.html` file under `dir` (or
 * on `files`, relative to `dir`, when given) and returns its errors and warnings (informational
 * notes, such as the `/>` React writes on void elements, are counted apart).
 */
export function runVnu(dir: string, files?: readonly string[]): { errors: VnuMessage[]; warnings: VnuMessage[]; infos: number; files: number } {
  const jar = join(PROJECT_ROOT, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');
  const targets = files === undefined ? [dir] : files.map((file) => join(dir, file));
  const run = spawnSync('java', ['-jar', jar, '--format', 'json', '--skip-non-html', '--verbose', ...targets], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw new Error(`could not run java for the Nu checker: ${run.error.message}`);
  if (run.status !== 0 && run.status !== 1) throw new Error(`the Nu checker failed (exit ${run.status}):\n${run.stderr.slice(0, 2000)}`);
  const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
  // --verbose lists the checked files on stdout; the other files of the folder are reported as skipped.
  const checked = new Set(run.stdout.split('\n').filter((line) => line.endsWith('.html')));
  const real = messages.filter((m) => !m.message.startsWith('File was not checked.'));
  return {
    errors: real.filter((m) => m.type === 'error' || m.type === 'non-document-error'),
    warnings: real.filter((m) => m.type === 'info' && m.subType === 'warning'),
    infos: real.filter((m) => m.type === 'info' && m.subType !== 'warning').length,
    files: checked.size,
  };
}
