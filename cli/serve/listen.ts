import { createServer, type Server } from 'node:net';
import type { Problem } from '../site/errors.ts';

/** Where the local servers listen unless told otherwise (`HOST`, `--host`): this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Starts `server` listening on `host:port`; resolves once it listens, rejects with the listen error (`EADDRINUSE`, `EACCES`, …). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed).once('listening', listening).listen(port, host);
  });
}

/** Rejects with the listen error when nothing could listen on `host:port` now; the probe is closed again at once. */
export async function ensureListenable(port: number, host: string): Promise<void> {
  const probe = createServer();
  await listen(probe, port, host);
  await new Promise((resolve) => probe.close(resolve));
}

/** Where a server was to listen and the settings a user changes to move it: `PORT` and `HOST`, or `--port` and `--host`. */
export interface ListenSettings {
  program: string;
  host: string;
  port: number;
  portSetting: string;
  /** Absent when the address is fixed. */
  hostSetting?: string;
  /** What listens there, when the program runs more than one server: `the ingest service`. */
  what?: string;
}

/**
 * The one-line problem for a server that could not listen, naming the address and the setting
 * to change.
 *
 * @example listenProblem({ code: 'EADDRINUSE' }, { program: 'sitegen', host: '127.0.0.1', port: 4321, portSetting: '--port', hostSetting: '--host' })
 * // { code: 'port_unavailable', file: 'sitegen', message: 'cannot listen on 127.0.0.1:4321: the port is already in use; choose another with --port' }
 */
export function listenProblem(error: NodeJS.ErrnoException, where: ListenSettings): Problem {
  const address = `${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}${where.what ? ` (${where.what})` : ''}`;
  const hostSetting = where.hostSetting ?? where.portSetting;
  const reasons: Record<string, string> = {
    EADDRINUSE: `the port is already in use; choose another with ${where.portSetting}`,
    EACCES: `ports below 1024 need administrator rights; choose another with ${where.portSetting}`,
    EADDRNOTAVAIL: `the address is not one of this machine's; correct ${hostSetting}`,
    ENOTFOUND: `the host name is unknown; correct ${hostSetting}`,
  };
  const reason = reasons[error.code ?? ''] ?? `${error.message}; check ${where.hostSetting ? `${where.portSetting} and ${where.hostSetting}` : where.portSetting}`;
  return { code: 'port_unavailable', file: where.program, message: `cannot listen on ${address}: ${reason}` };
}

/**
 * The address to open in a browser for a server listening on `host:port`.
 *
 * @example browserUrl('127.0.0.1', 4321) // 'http://localhost:4321'
 * @example browserUrl('::1', 4321)       // 'http://[::1]:4321'
 */
export function browserUrl(host: string, port: number): string {
  const local = ['127.0.0.1', '0.0.0.0', '::', 'localhost'].includes(host);
  return `http://${local ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
}

// The loopback addresses a browser on this machine may use for a server listening on each host.
// (A Map: HOST is any text, and an object's lookup would find `constructor` for HOST=constructor.)
const LOOPBACK_SPELLINGS: ReadonlyMap<string, readonly string[]> = new Map([
  ['127.0.0.1', ['127.0.0.1']],
  ['0.0.0.0', ['127.0.0.1']],
  ['::1', ['[::1]']],
  ['::', ['127.0.0.1', '[::1]']],
  ['localhost', ['127.0.0.1', '[::1]']],
]);

/**
 * Every origin a browser on this machine may open a server listening on `host:port` at: the one
 * announced (`browserUrl`, first) and the other loopback spellings of the same server.
 *
 * @example localOrigins('127.0.0.1', 4321) // ['http://localhost:4321', 'http://127.0.0.1:4321']
 * @example localOrigins('192.0.2.7', 4321) // ['http://192.0.2.7:4321']
 */
export function localOrigins(host: string, port: number): string[] {
  const spellings = LOOPBACK_SPELLINGS.get(host);
  const others = spellings === undefined ? [] : ['localhost', ...spellings].map((name) => `http://${name}:${port}`);
  return [...new Set([browserUrl(host, port), ...others])];
}
