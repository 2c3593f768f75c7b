import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { contentCopy, type DevProcess, expectDevStopsOn, startDev } from '../../helpers/dev-server.ts';
import { freePort, listening } from '../../helpers/ports.ts';
import { send } from '../serve/stand-in-ingest.ts';

// What a web page can do to a running `sitegen dev`, and how it ends: a real process on real
// ports, requests over real HTTP.

describe('sitegen dev and the requests a web page can make', () => {
  let dev: DevProcess;

  beforeAll(async () => {
    dev = await startDev({ contentDir: contentCopy() });
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
  });

  it('regression: GET /__sitegen/constructor (and the other names every object has) is a 404, and the server goes on answering (it killed sitegen dev)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect((await send(dev.url, `/__sitegen/${name}`)).status, name).toBe(404);
    }
    expect((await send(dev.url, '/robots.constructor')).status).toBe(404);
    expect((await send(dev.url, '/__sitegen/dev-client.js')).status).toBe(200);
    expect((await send(dev.url, '/de')).status).toBe(200);
    expect(dev.child.exitCode).toBeNull();
    expect(await listening(dev.ingestPort)).toBe(true);
  });

  it('regression: refuses with 403 a request whose Host names another site (DNS rebinding), to pages, the event stream and /api alike', async () => {
    for (const host of ['evil.example', `evil.example:${dev.port}`, `www.example.com@evil.example:${dev.port}`, `localhost.evil.example:${dev.port}`]) {
      for (const path of ['/de', '/__sitegen/dev-client.js', '/__sitegen/events?file=de.html&version=x', '/api/captcha?lang=de']) {
        const res = await send(dev.url, path, { headers: { host } });
        expect(res.status, `${host} ${path}`).toBe(403);
        expect(res.body).not.toContain('<html');
      }
    }
  });

  it('answers the names of this machine: localhost, 127.0.0.1 and [::1], with or without the port', async () => {
    for (const host of [`localhost:${dev.port}`, `127.0.0.1:${dev.port}`, `[::1]:${dev.port}`, 'localhost', `LOCALHOST:${dev.port}`]) {
      const res = await send(dev.url, '/de', { headers: { host } });
      expect(res.status, host).toBe(200);
      expect(res.body).toContain('/__sitegen/dev-client.js');
    }
  });

  // Stopped here, after the requests, rather than started anew for it: a start is a whole first
  // build. SIGINT has its test in dev-command.test.ts, on that file's running server.
  it('regression: SIGTERM stops the site server and the ingest service: nothing is left listening', async () => {
    await expectDevStopsOn(dev, 'SIGTERM');
  }, 60_000);
});

/** The process ids of `pid`'s children (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Whether the process `pid` still runs (a zombie awaiting its parent counts as gone). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('sitegen dev ending while it starts', () => {
  // A fault in the program itself, made for the test: a module loaded before sitegen (`--import`)
  // throws from a signal handler, an uncaught error like any other.
  const FAULT_ON_SIGUSR2 = `data:text/javascript,process.on('SIGUSR2', () => { throw new Error('a fault while starting'); })`;

  it.each([
    ['an uncaught error', 'SIGUSR2', 1],
    ['a closed terminal (SIGHUP)', 'SIGHUP', 0],
  ] as const)(
    'regression: %s while the ingest service is still starting stops the service too: nothing holds its port (it was left running)',
    async (_what, signal, exitCode) => {
      const [port, ingestPort] = [await freePort(), await freePort()];
      const dataDir = mkdtempSync(join(tmpdir(), 'sitegen-dev-data-'));
      const child = spawn(process.execPath, ['--import', FAULT_ON_SIGUSR2, join(PROJECT_ROOT, 'cli', 'bin.js'), 'dev', '--content', contentCopy()], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, PORT: String(port), INGEST_PORT: String(ingestPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let ingest: number | undefined;
      try {
        // The moment the ingest service is spawned, long before it listens.
        await expect.poll(() => (ingest = childrenOf(child.pid!)[0]), { timeout: 90_000, interval: 10 }).toBeDefined();
        expect(await listening(ingestPort)).toBe(false);
        child.kill(signal);
        expect(await exited, output).toBe(exitCode);
        await expect.poll(() => running(ingest!), { timeout: 30_000, message: `the ingest service (pid ${ingest}) still runs:\n${output}` }).toBe(false);
        expect([await listening(port), await listening(ingestPort)]).toEqual([false, false]);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        if (ingest !== undefined && running(ingest)) process.kill(ingest, 'SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
