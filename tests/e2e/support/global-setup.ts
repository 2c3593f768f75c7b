import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS, INGEST_BIN, PROJECT_ROOT } from '../../../cli/paths.ts';
import { createStaticServer } from '../../../cli/serve/static-server.ts';
import { freePort } from '../../helpers/ports.ts';
import { smtpPeer } from '../../helpers/smtp-peer.ts';
import { untilReady } from '../../helpers/until-ready.ts';
import { nginxAvailable, startNginx } from './nginx-server.ts';

/** What the specs need to know about the running stack; written to `E2E_STATE` as JSON. */
export interface E2EState {
  baseURL: string;
  /** The same build served by Debian's nginx with the generated config, or null when nginx is not installed. */
  nginxURL: string | null;
  /** The built folder both servers serve. */
  outDir: string;
  /** The ingest service's `DATA_DIR` (its SQLite file, its generated `captcha-secret`). */
  dataDir: string;
  databaseFile: string;
  mailDir: string;
  /**
   * The ingest service's `SITE_URL`, the origin its mail links and redirects lead to: `baseURL`.
   * Its `ALLOWED_ORIGINS` is `nginxURL` (when nginx runs), so plain form posts through nginx are accepted.
   */
  siteUrl: string;
}

/**
 * Starts the whole stack for the browser tests: the built site (served by the local static
 * server, and by Debian's nginx with the generated config), the real ingest service on a
 * temporary SQLite file (its SITE_URL the static server, so mail links lead to the site under
 * test), and a real SMTP peer receiving the sales and confirmation mails. Returns the teardown.
 */
export default async function globalSetup() {
  const work = mkdtempSync(join(tmpdir(), 'e2e-'));
  const outDir = join(work, 'dist');
  const result = await buildSite({ ...DEFAULT_PATHS, outDir });
  if (result.errors.length > 0) throw new Error(`build failed:\n${result.errors.join('\n')}`);

  const mailDir = join(work, 'smtp-inbox');
  mkdirSync(mailDir, { recursive: true });
  let delivered = 0;
  // The specs run in other processes, so each accepted message is handed over as a file `N.eml`.
  const smtp = await smtpPeer({ onMessage: (raw) => writeFileSync(join(mailDir, `${++delivered}.eml`), raw) });
  // A port nothing listens on now (a random one once met a process left listening on it: EADDRINUSE).
  const ingestPort = await freePort();
  // The static server only needs the ingest port, so it listens first: its origin is the
  // service's SITE_URL, and the links in the mails lead to the site under test.
  const server = createStaticServer({ root: outDir, apiTarget: `http://127.0.0.1:${ingestPort}` });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // nginx serves the same site on another origin: its port is chosen now, so the service can be
  // told that origin among its ALLOWED_ORIGINS (a plain HTML form posted through nginx carries it),
  // as an operator lists each host name the site is served on. SITE_URL stays the static server.
  const nginxPort = nginxAvailable() ? await freePort() : null;
  const nginxOrigin = nginxPort === null ? null : `https://127.0.0.1:${nginxPort}`;

  const dataDir = join(work, 'data');
  const ingest = spawn(process.execPath, [INGEST_BIN, 'serve'], {
    cwd: work,
    env: {
      ...process.env,
      PORT: String(ingestPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SITE_URL: baseURL,
      ...(nginxOrigin === null ? {} : { ALLOWED_ORIGINS: nginxOrigin }),
      SMTP_URL: smtp.url,
      SALES_EMAIL: 'sales@example.com',
      RATE_LIMIT_MAX: '1000',
      // Every spec posts contacts from 127.0.0.1; the daily cap has its own test.
      RATE_LIMIT_CONTACT_DAILY_MAX: '100000',
      RATE_LIMIT_NEWSLETTER_DAILY_MAX: '100000',
      RATE_LIMIT_CONTACT_HOURLY_CEILING: '100000',
      RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '100000',
      // Playwright fills a form in well under the default 3 s; the island still waits this long
      // after each question (tests/ingest/http/captcha-attempts.test.ts proves the default).
      CAPTCHA_MIN_FILL_MS: '300',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await untilReady(`http://127.0.0.1:${ingestPort}/readyz`, 20_000);

  const nginx = nginxPort === null ? null : await startNginx(outDir, ingestPort, join(work, 'nginx'), nginxPort);

  const state: E2EState = {
    baseURL,
    nginxURL: nginx?.baseURL ?? null,
    outDir,
    dataDir,
    databaseFile: join(dataDir, 'ingest.sqlite'),
    mailDir,
    siteUrl: baseURL,
  };
  const stateFile = join(work, 'state.json');
  writeFileSync(stateFile, JSON.stringify(state));
  process.env.E2E_STATE = stateFile;
  process.env.E2E_BASE_URL = state.baseURL;

  return async () => {
    await nginx?.stop();
    server.close();
    ingest.kill('SIGTERM');
    await new Promise((r) => ingest.once('exit', r));
    await smtp.close();
  };
}
