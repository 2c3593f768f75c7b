import { type ChildProcess, spawn } from 'node:child_process';
import { INGEST_BIN, PROJECT_ROOT } from '../paths.ts';

/** How long the service may take to finish its requests after SIGTERM before it is killed. */
const INGEST_STOP_MS = 15_000;

/** The ingest service running beside a local site server. */
export interface IngestService {
  readonly child: ChildProcess;
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
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      if (!stopping) onUnexpectedExit(signal ?? `code ${code}`);
      resolve();
    });
  });
  return {
    child,
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
