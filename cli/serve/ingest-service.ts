import { type ChildProcess, spawn } from 'node:child_process';
import { INGEST_BIN, PROJECT_ROOT } from '../paths.ts';

/**
 * The signals that stop `npm start` and `sitegen dev` and, through them, the service: Ctrl-C, a
 * process manager's stop, and a terminal closed (SIGHUP, whose default would end the program
 * without a word to the service).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How long the service may take to finish its requests after SIGTERM before it is killed. */
const INGEST_STOP_MS = 15_000;
/** How long `ready` waits for the service's first `GET /readyz` 200 (migrations included). */
const INGEST_READY_MS = 60_000;

/** The ingest service running beside a local site server. */
export interface IngestService {
  readonly child: ChildProcess;
  /**
   * Resolves with true once the service answers `GET /readyz` with 200, so an address printed
   * after it works at once; with false when it exits first (`onUnexpectedExit` or `stop()` has
   * said why); rejects when it is still not ready after a minute.
   */
  readonly ready: Promise<boolean>;
  /** Asks it to stop (SIGTERM, then SIGKILL after 15 s); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the ingest service as a child process for `npm start` and `sitegen dev`: on
 * `host:port`, trusting the site server on 127.0.0.1 as its proxy (it sets X-Forwarded-For, so
 * rate limits apply per visitor), accepting forms from `siteOrigin` and `otherOrigins` (the same
 * site under its other loopback spellings; unless ALLOWED_ORIGINS says otherwise) and linking its
 * mails to `siteOrigin` (unless SITE_URL says otherwise), with SQLite and the file mail sink under
 * `data/` unless the environment configures them (a blank value counts as unset, as it does for the
 * service). `onUnexpectedExit` is called when it exits before `stop()` was asked for.
 *
 * The child runs in its own process group, so a Ctrl-C in the terminal reaches only the program
 * that started it, which then asks it to stop once (a second signal would make the service skip
 * its drain). Should the program end any other way (an uncaught error, `process.exit`), the
 * child is sent SIGTERM as it exits, whether or not the service has finished starting. An IPC
 * channel ties it to that program as well: should the program be killed (SIGKILL) after the
 * service has started, the channel closes and the service shuts down by itself.
 */
export function startIngestService({ host, port, siteOrigin, otherOrigins = [], onUnexpectedExit }: {
  host: string;
  port: number;
  siteOrigin: string;
  otherOrigins?: readonly string[];
  onUnexpectedExit: (reason: string) => void;
}): IngestService {
  const child = spawn(process.execPath, [INGEST_BIN, 'serve'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: host,
      TRUST_PROXY: '127.0.0.1',
      ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS || [siteOrigin, ...otherOrigins].join(','),
      // The links in its mails and its redirects lead to this local site.
      SITE_URL: process.env.SITE_URL || siteOrigin,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  let stopping = false;
  // Synchronous, so it runs on every way out of this program, an uncaught error's included: a
  // service still starting has not yet tied its life to the IPC channel, and would keep its port.
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('exit', killOnExit);
      if (!stopping) onUnexpectedExit(signal ?? `code ${code}`);
      resolve();
    });
  });
  const ready = readyOrExited(`http://${host}:${port}/readyz`, exited);
  ready.catch(() => {}); // a caller that stops before awaiting it has nothing to learn from it
  return {
    child,
    ready,
    stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), INGEST_STOP_MS).unref();
      }
      return exited;
    },
  };
}

/** Polls `url` until it answers 200 (true) or `exited` settles (false); rejects after a minute. */
async function readyOrExited(url: string, exited: Promise<void>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + INGEST_READY_MS;
  while (!gone) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return true;
    if (Date.now() > deadline) throw new Error(`the ingest service was not ready within ${INGEST_READY_MS / 1000} s (${url})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
