import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { builtSite } from '../../helpers/built-site.ts';
import { freePort, listening } from '../../helpers/ports.ts';
import { send } from './stand-in-ingest.ts';

// `sitegen preview` and `npm start` as a user runs them: real processes, real ports.

const TSX = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killing it after `timeoutMs`) and gives its exit code and output. */
function runToExit(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env } });
    const run: Run = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ ...run, code });
    });
  });
}

/** An address of this machine that is not loopback, if it has one. */
const outsideAddress = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

/** The lines a command wrote, without npm's own notices about this machine's configuration. */
const lines = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('npm warn'));

let busy: Server;
let busyPort = 0;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe('a port that is in use', () => {
  it('regression: sitegen preview on a busy port prints one line naming the port and --port, and exits 2', async () => {
    const run = await runToExit(process.execPath, ['cli/bin.js', 'preview', '--port', String(busyPort)]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `sitegen: cannot listen on 127.0.0.1:${busyPort}: the port is already in use; choose another with --port [port_unavailable]`,
    ]);
  });

  it('regression: npm start on a busy PORT prints one line naming PORT, exits 2 and leaves no ingest service listening', async () => {
    const ingestPort = await freePort();
    const run = await runToExit(TSX, ['cli/serve/start.ts'], { PORT: String(busyPort), INGEST_PORT: String(ingestPort) });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `npm start: cannot listen on 127.0.0.1:${busyPort} (the site): the port is already in use; choose another with PORT [port_unavailable]`,
    ]);
    // An ingest service started anyway would be listening by now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await listening(ingestPort)).toBe(false);
  });

  it('regression: npm start on a busy INGEST_PORT prints one line naming INGEST_PORT, exits 2 and leaves the site port free', async () => {
    const port = await freePort();
    const run = await runToExit(TSX, ['cli/serve/start.ts'], { PORT: String(port), INGEST_PORT: String(busyPort) });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `npm start: cannot listen on 127.0.0.1:${busyPort} (the ingest service): the port is already in use; choose another with INGEST_PORT [port_unavailable]`,
    ]);
    expect(await listening(port)).toBe(false);
  });
});

describe('where the local servers listen', () => {
  it.runIf(outsideAddress)('regression: sitegen preview listens on 127.0.0.1 only, unless --host says otherwise', async () => {
    const { outDir } = await builtSite();
    for (const [hostArgs, outsideReaches] of [[[], false], [['--host', '0.0.0.0'], true]] as const) {
      const port = await freePort();
      const preview = spawn(process.execPath, ['cli/bin.js', 'preview', '--out', outDir, '--port', String(port), ...hostArgs], { cwd: PROJECT_ROOT });
      try {
        await new Promise((resolve) => preview.stdout.once('data', resolve));
        expect(await listening(port), `${hostArgs}`).toBe(true);
        expect(await listening(port, outsideAddress), `${hostArgs}`).toBe(outsideReaches);
      } finally {
        preview.kill('SIGTERM');
      }
    }
    // The first test of its process to ask for the built site builds it (a whole build, about a minute on a loaded machine).
  }, 120_000);
});

/**
 * `npm start` on two free ports with its own data folder and `env`, in a process group of its own
 * with `group` (as a terminal's foreground job); resolves once it has printed the site's address.
 * `output` is what it wrote (both streams), `exited` its exit code; `remove` deletes the folder.
 */
async function startNpm(name: string, env: Record<string, string> = {}, { group = false, timeout = 60_000 } = {}) {
  const [port, ingestPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const npm = spawn('npm', ['start'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), INGEST_PORT: String(ingestPort), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  let output = '';
  for (const stream of [npm.stdout, npm.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    // Waited for by event, not expect.poll: a beforeAll starts one too.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no address within ${timeout / 1000} s:\n${output}`)), timeout);
      const check = () => {
        if (/site: http/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (const stream of [npm.stdout, npm.stderr]) stream.on('data', check);
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before printing its address:\n${output}`)));
    });
  } catch (error) {
    try {
      if (group) process.kill(-npm.pid!, 'SIGKILL');
      else npm.kill('SIGKILL');
    } catch {
      // gone already
    }
    remove();
    throw error;
  }
  return { npm, port, ingestPort, exited, output: () => output, remove };
}

/**
 * Holds a running `npm start` to what stopping it with `signal` must do: both servers listen on
 * 127.0.0.1 only while it runs, and neither port is held once npm has exited.
 */
async function expectStopsOn(npm: ChildProcess, signal: NodeJS.Signals, port: number, ingestPort: number, exited: Promise<number | null>): Promise<void> {
  expect(await listening(port)).toBe(true);
  expect(await listening(ingestPort)).toBe(true);
  if (outsideAddress) expect(await listening(port, outsideAddress)).toBe(false);

  npm.kill(signal);
  await exited;
  await expect.poll(async () => [await listening(port), await listening(ingestPort)], { timeout: 20_000 }).toEqual([false, false]);
}

describe('stopping npm start', () => {
  // SIGTERM has its test on the running server of 'npm start at either loopback spelling' below.
  it(
    'regression: SIGINT to npm stops the site server and the ingest service, on 127.0.0.1 only while they ran',
    async () => {
      const { npm, port, ingestPort, exited, remove } = await startNpm('npm-start');
      try {
        await expectStopsOn(npm, 'SIGINT', port, ingestPort, exited);
      } finally {
        if (npm.exitCode === null) npm.kill('SIGKILL');
        remove();
      }
    },
    120_000,
  );

  it(
    'regression: Ctrl-C in a terminal (SIGINT to the whole process group) stops the service with one graceful drain, not "second signal, exiting now"',
    async () => {
      // A process group of its own, as a terminal's foreground job: Ctrl-C signals every process in it.
      const { npm, port, ingestPort, exited, output, remove } = await startNpm('npm-start-ctrl-c', { LOG_LEVEL: 'info' }, { group: true });
      try {
        process.kill(-npm.pid!, 'SIGINT');
        await exited;
        await expect.poll(async () => [await listening(port), await listening(ingestPort)], { timeout: 20_000 }).toEqual([false, false]);
        expect(output()).toMatch(/"msg":"stopped"/);
        expect(output()).not.toMatch(/second signal/);
      } finally {
        try {
          process.kill(-npm.pid!, 'SIGKILL');
        } catch {
          // the group is gone already
        }
        remove();
      }
    },
    120_000,
  );
});

describe('npm start at either loopback spelling', () => {
  // One npm start for both tests (a start is a build and a service): the forms, then SIGTERM.
  let started: Awaited<ReturnType<typeof startNpm>>;

  beforeAll(async () => {
    started = await startNpm('npm-start-origins', { SITE_URL: '', ALLOWED_ORIGINS: '' }, { timeout: 90_000 });
  }, 150_000);

  afterAll(async () => {
    if (!started) return;
    const { npm, exited, remove } = started;
    if (npm.exitCode === null) npm.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (npm.exitCode === null) npm.kill('SIGKILL');
    remove();
  });

  it('regression: a no-JS form opened at 127.0.0.1 (npm start announces localhost) is accepted, and the visitor stays on the spelling they used', async () => {
    const { port, output } = started;
    expect(output()).toContain(`site: http://localhost:${port}`);
    const base = `http://127.0.0.1:${port}`;
    // Printed only once the service answers: the captcha works at once (it answered 502 for a second).
    expect((await send(base, '/api/captcha', { method: 'GET', headers: { host: `127.0.0.1:${port}` } })).status).toBe(200);
    for (const [i, origin] of [`http://127.0.0.1:${port}`, `http://localhost:${port}`].entries()) {
      const host = new URL(origin).host;
      const form = new URLSearchParams({ name: 'Ana', email: `ana.${i}@example.com`, privacyConsent: 'true', lang: 'de', website: '' }).toString();
      const res = await send(base, '/api/newsletter', { method: 'POST', headers: { host, origin, referer: `${origin}/de`, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      expect([res.status, res.headers.location], origin).toEqual([303, '/de/newsletter/check-inbox']);
      const json = { name: 'Ana', email: `ana.json${i}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'de' };
      const island = await send(base, '/api/newsletter', { method: 'POST', headers: { host, origin, 'content-type': 'application/json' }, body: JSON.stringify(json) });
      expect(island.status, origin).toBe(201);
    }
    const foreign = await send(base, '/api/newsletter', { method: 'POST', headers: { origin: 'http://127.0.0.2:1', 'content-type': 'application/x-www-form-urlencoded' }, body: 'lang=de' });
    expect(foreign.status).toBe(403);
  }, 60_000);

  it('regression: SIGTERM to npm stops the site server and the ingest service, on 127.0.0.1 only while they ran', async () => {
    const { npm, port, ingestPort, exited } = started;
    await expectStopsOn(npm, 'SIGTERM', port, ingestPort, exited);
  }, 60_000);
});
