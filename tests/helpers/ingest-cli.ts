/**
 * Runs the `ingest` command as an operator would, in a process of its own with only the given
 * environment (and PATH): the one way the tests call its commands.
 *
 *   const run = await runIngest(['export', '--email', 'ana@example.com'], { DATA_DIR: dir });
 *   expect(run.code).toBe(0);
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The command's entry point, as the container runs it. */
const INGEST_BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;

/** How a run ended: its exit code and what it printed. */
export interface IngestRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `ingest ARGS` with `env`; resolves with its exit code and output whatever the code. `umask`
 * runs it under that file-creation mask (through `sh`), `cwd` in that folder.
 */
export async function runIngest(args: string[], env: Record<string, string>, options: { cwd?: string; umask?: string } = {}): Promise<IngestRun> {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
  const [file, argv] = options.umask === undefined
    ? [process.execPath, [INGEST_BIN, ...args]]
    : ['sh', ['-c', `umask ${options.umask} && exec "${process.execPath}" "${INGEST_BIN}" ${quoted}`]];
  try {
    const { stdout, stderr } = await promisify(execFile)(file, argv, { env: { PATH: process.env.PATH ?? '', ...env }, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
