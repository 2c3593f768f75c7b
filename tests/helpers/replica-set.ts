/**
 * Several ingest replicas as separate processes on one PostgreSQL database (or one process on a
 * SQLite file), started the way an operator starts them: `node ingest/bin.js serve` with
 * environment variables, each on its own loopback port with its own data folder. The fault suite
 * kills (SIGKILL) and restarts them as a process supervisor would, the concurrency suite sends
 * them identical requests at once; a replica's log goes to a file, printed when it fails to start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import { untilReady } from './until-ready.ts';

const BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;

/** One replica: its URL stays the same across restarts. */
interface Replica {
  url: string;
  /** The process running now (undefined while killed). */
  process: ChildProcess | undefined;
  /** Started and answering `/readyz` (what a load balancer's health check waits for). */
  ready: boolean;
  /** Process ids this replica has had, in order: one per start. */
  pids: number[];
}

/** A running set of replicas. */
export interface ReplicaSet {
  replicas: Replica[];
  /** The URLs of the replicas that are running now (the load balancer's healthy upstreams). */
  live(): string[];
  /** `kill -9`: no drain, no goodbye; the replica's connections break mid-request. */
  kill(index: number): void;
  /** Starts a killed replica again on the same port and waits until it is ready. */
  restart(index: number): Promise<void>;
  /** Whether the process of each replica is the one it started with (it never restarted). */
  stillFirstProcess(index: number): boolean;
  /** The end of each replica's log (warnings and errors: the replicas log at `warn`). */
  logTails(): string;
  /** SIGTERM to all, then removes their folders. */
  stop(): Promise<void>;
}

/**
 * Starts `count` replicas on `databaseUrl`, mailing through `smtpUrl`, and waits until each
 * answers `/readyz` with 200. `env` adds or overrides variables (all replicas alike).
 */
export async function startReplicas(count: number, databaseUrl: string, smtpUrl: string, env: Record<string, string> = {}): Promise<ReplicaSet> {
  const root = mkdtempSync(join(tmpdir(), 'ingest-replicas-'));
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const replicas: Replica[] = ports.map((port) => ({ url: `http://127.0.0.1:${port}`, process: undefined, ready: false, pids: [] }));

  const launch = async (index: number) => {
    const dataDir = join(root, `replica-${index}`);
    const logFile = join(root, `replica-${index}.log`);
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? root,
        PORT: String(ports[index]),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtpUrl,
        LOG_LEVEL: 'warn',
        // The load comes from one address; only the rate-limit scenarios set real limits. Its
        // captchas are answered at once, not after the 3 s a person needs.
        RATE_LIMIT_MAX: '1000000',
        RATE_LIMIT_CONTACT_DAILY_MAX: '1000000',
        RATE_LIMIT_NEWSLETTER_DAILY_MAX: '1000000',
        RATE_LIMIT_CONTACT_HOURLY_CEILING: '1000000',
        RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '1000000',
        CAPTCHA_MIN_FILL_MS: '0',
        SHUTDOWN_DRAIN_MS: '0',
        ...env,
      },
      stdio: ['ignore', log, log],
    });
    const replica = replicas[index]!;
    replica.process = child;
    replica.pids.push(child.pid!);
    // The exit of a replica that started long ago (killed, or stopped after the set removed its
    // folder) rejects a promise nobody waits for any more: its log may be gone by then.
    const logTail = () => {
      try {
        return readFileSync(logFile, 'utf8').slice(-3000);
      } catch {
        return '(its log is gone)';
      }
    };
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`replica ${index} exited (${code ?? signal}) while starting:\n${logTail()}`))),
    );
    exited.catch(() => {}); // a later kill is not an error
    await Promise.race([untilReady(`${replica.url}/readyz`, 90_000, logFile), exited]);
    replica.ready = true;
  };

  await Promise.all(replicas.map((_, index) => launch(index)));
  return {
    replicas,
    live: () => replicas.filter((replica) => replica.ready).map((replica) => replica.url),
    kill(index) {
      const replica = replicas[index]!;
      replica.process?.kill('SIGKILL');
      replica.process = undefined;
      replica.ready = false;
    },
    restart: (index) => launch(index),
    logTails: () =>
      replicas
        .map((replica, index) => `--- replica ${index} (${replica.url}):\n${readFileSync(join(root, `replica-${index}.log`), 'utf8').slice(-4000)}`)
        .join('\n'),
    stillFirstProcess: (index) => {
      const replica = replicas[index]!;
      return replica.pids.length === 1 && replica.process !== undefined && replica.process.exitCode === null && replica.process.signalCode === null;
    },
    async stop() {
      await Promise.all(
        replicas.map(async (replica) => {
          const child = replica.process;
          if (child === undefined || child.exitCode !== null) return;
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          child.kill('SIGKILL');
        }),
      );
      rmSync(root, { recursive: true, force: true });
    },
  };
}
