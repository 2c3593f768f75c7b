import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../cli/paths.ts';
import { expect } from 'vitest';
import { freePort, listening } from './ports.ts';

/** A copy of the real content folder in a temporary folder, for tests that edit it. */
export function contentCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'sitegen-dev-content-')), 'content');
  cpSync(DEFAULT_PATHS.contentDir, dir, { recursive: true });
  return dir;
}

/**
 * A copy of the project's sources (cli, templates, content, ingest, compile.js, package files)
 * with node_modules linked, for runs that edit templates without touching the checkout; its
 * bin.js compiles the copy's programs on first run. The build cache is shared through the link;
 * identical sources give identical cache keys.
 */
export function projectCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'sitegen-dev-project-'));
  for (const entry of ['cli', 'templates', 'content', 'ingest', 'compile.js', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(PROJECT_ROOT, entry), join(root, entry), { recursive: true });
  }
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  return root;
}

/** A running `sitegen dev`. */
export interface DevProcess {
  child: ChildProcess;
  url: string;
  port: number;
  ingestPort: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and resolves with the exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `sitegen dev` as a user runs it (`node cli/bin.js dev`) on free ports, with the ingest
 * service's data in a temporary folder, and resolves once it says where it serves.
 */
export async function startDev({ root = PROJECT_ROOT, contentDir }: { root?: string; contentDir?: string } = {}): Promise<DevProcess> {
  const [port, ingestPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'sitegen-dev-data-'));
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, [join(root, 'cli', 'bin.js'), 'dev', ...(contentDir ? ['--content', contentDir] : [])], {
    cwd: root,
    env: { ...process.env, PORT: String(port), INGEST_PORT: String(ingestPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sitegen dev did not start in time:\n${output}`)), 90_000);
    const check = () => {
      if (/sitegen dev: http:\/\//.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`sitegen dev exited (${code}):\n${output}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    port,
    ingestPort,
    output: () => output,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Asserts that `signal` stops a running `sitegen dev` whole: both servers listened, it exits 0, and
 * neither the site server nor the ingest service is left listening.
 */
export async function expectDevStopsOn(dev: DevProcess, signal: NodeJS.Signals): Promise<void> {
  await expect.poll(() => listening(dev.ingestPort), { timeout: 30_000 }).toBe(true);
  expect(await listening(dev.port)).toBe(true);
  expect(await dev.stop(signal)).toBe(0);
  expect([await listening(dev.port), await listening(dev.ingestPort)]).toEqual([false, false]);
}
