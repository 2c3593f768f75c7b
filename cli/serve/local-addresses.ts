import type { Problem } from '../site/errors.ts';
import { DEFAULT_HOST, ensureListenable, listenProblem, type ListenSettings } from './listen.ts';

/** Where `npm start` and `sitegen dev` put the site and the ingest service beside it. */
export interface LocalAddresses {
  /** The site: `HOST` (default 127.0.0.1) and `PORT` (default 4321). */
  host: string;
  port: number;
  /** The service: always 127.0.0.1 (only the site's proxy talks to it), `INGEST_PORT` (default 8787). */
  ingestHost: string;
  ingestPort: number;
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, program: string): number | Problem {
  const value = env[name];
  const port = value === undefined || value === '' ? fallback : Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { code: 'option_invalid', file: program, message: `${name} must be a number from 1 to 65535, got "${value}"` };
  }
  return port;
}

/**
 * The addresses from the environment (`PORT`, `INGEST_PORT`, `HOST`), or the problem with the
 * first bad value.
 *
 * @example localAddresses({ PORT: '3000' }, 'npm start') // { host: '127.0.0.1', port: 3000, ingestHost: '127.0.0.1', ingestPort: 8787 }
 * @example localAddresses({ PORT: 'x' }, 'npm start')    // { code: 'option_invalid', file: 'npm start', message: 'PORT must be a number from 1 to 65535, got "x"' }
 */
export function localAddresses(env: NodeJS.ProcessEnv, program: string): LocalAddresses | Problem {
  const port = portFrom(env, 'PORT', 4321, program);
  if (typeof port !== 'number') return port;
  const ingestPort = portFrom(env, 'INGEST_PORT', 8787, program);
  if (typeof ingestPort !== 'number') return ingestPort;
  return { host: env.HOST || DEFAULT_HOST, port, ingestHost: '127.0.0.1', ingestPort };
}

/** The settings that place the site, for `listenProblem`. */
export function siteListenSettings(addresses: LocalAddresses, program: string): ListenSettings {
  return { program, host: addresses.host, port: addresses.port, portSetting: 'PORT', hostSetting: 'HOST', what: 'the site' };
}

/**
 * Tries both ports before anything is built or started (a busy one costs a second, not a
 * build); the problem of the first that cannot be used, or null.
 */
export async function unavailablePort(addresses: LocalAddresses, program: string): Promise<Problem | null> {
  const service: ListenSettings = { program, host: addresses.ingestHost, port: addresses.ingestPort, portSetting: 'INGEST_PORT', what: 'the ingest service' };
  for (const [port, host, settings] of [
    [addresses.port, addresses.host, siteListenSettings(addresses, program)],
    [addresses.ingestPort, addresses.ingestHost, service],
  ] as const) {
    try {
      await ensureListenable(port, host);
    } catch (error) {
      return listenProblem(error as NodeJS.ErrnoException, settings);
    }
  }
  return null;
}
