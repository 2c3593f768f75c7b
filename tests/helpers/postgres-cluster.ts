/**
 * A throw-away PostgreSQL cluster for tests, the fault suite and the bench: `initdb` into a temp
 * folder, `pg_ctl start` on a free loopback port with its socket in that folder, `stop` removes
 * it all. Uses Debian's `postgresql` package (`/usr/lib/postgresql/<version>/bin`, or `PG_BIN`).
 * PostgreSQL refuses to run as root, so as root the binaries run as the `postgres` user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/** The one line a developer without PostgreSQL sees. */
export const INSTALL_HINT = 'PostgreSQL 15+ not found: install it with `sudo apt-get install -y postgresql` (or set PG_BIN to its bin folder)';

/** A running cluster. */
export interface PostgresCluster {
  /** `postgres://app@127.0.0.1:PORT/postgres`: the superuser `app`, trust auth on loopback. */
  url: string;
  port: number;
  dataDir: string;
  /**
   * `pg_ctl restart -m immediate`: a crash and recovery, as after a power cut of the server alone.
   * Asynchronous, so that the caller's own clients keep running during the restart.
   */
  restartImmediate(): Promise<void>;
  /** `pg_ctl stop -m immediate` (the service sees connections refused until `start`). */
  stopImmediate(): void;
  start(): void;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/** The folder holding `initdb` and `pg_ctl`, or null when PostgreSQL is not installed. */
export function postgresBin(): string | null {
  const given = process.env.PG_BIN;
  if (given) return existsSync(join(given, 'pg_ctl')) ? given : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'pg_ctl')));
  return found ?? null;
}

/** Starts a cluster (about 2 s); `settings` are extra `-c name=value` server settings. */
export async function startPostgresCluster(settings: Record<string, string> = {}): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (bin === null) throw new Error(INSTALL_HINT);
  const asRoot = process.getuid?.() === 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'ingest-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dataDir, uid, gid);
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const run = (program: string, args: string[]) => {
    execFileSync(...command(program, args), { stdio: ['ignore', 'pipe', 'pipe'], cwd: dataDir });
  };
  const runAsync = async (program: string, args: string[]) => {
    await promisify(execFile)(...command(program, args), { cwd: dataDir });
  };
  run('initdb', ['-D', dataDir, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-instructions']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dataDir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dataDir, 'server.log'), '-w', 'start']);
  start();
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    restartImmediate: () => runAsync('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dataDir, 'server.log'), '-m', 'immediate', '-w', 'restart']),
    stopImmediate: () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
    start,
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
