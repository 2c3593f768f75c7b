import { spawn } from 'node:child_process';
import { buildSite } from '../build/build-site.ts';
import { formatProblem, type Problem } from '../site/errors.ts';
import { DEFAULT_PATHS, INGEST_BIN, PROJECT_ROOT } from '../paths.ts';
import { browserUrl, DEFAULT_HOST, ensureListenable, listen, listenProblem } from './listen.ts';
import { createStaticServer } from './static-server.ts';

/**
 * `npm start`: builds the site, starts the ingest service (SQLite and the file mail sink under
 * `data/` unless configured otherwise) and serves `dist/` with `/api` forwarded to it, on one
 * origin. `PORT` and `HOST` place the site (default 127.0.0.1:4321), `INGEST_PORT` the service
 * (always on 127.0.0.1, default 8787). A port that cannot be used is one line and exit 2, before
 * anything is built or started; SIGINT and SIGTERM stop both servers.
 */

/** Ends the program with one line on stderr; nothing has been started when this is called. */
function fail(problem: Problem, exitCode: number): never {
  process.stderr.write(`${formatProblem(problem)}\n`);
  process.exit(exitCode);
}

function portFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  const port = value === undefined || value === '' ? fallback : Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    fail({ code: 'option_invalid', file: 'npm start', message: `${name} must be a number from 1 to 65535, got "${value}"` }, 2);
  }
  return port;
}

const port = portFromEnv('PORT', 4321);
const ingestPort = portFromEnv('INGEST_PORT', 8787);
const host = process.env.HOST || DEFAULT_HOST;
const ingestHost = '127.0.0.1';
const site = { program: 'npm start', host, port, portSetting: 'PORT', hostSetting: 'HOST', what: 'the site' };
const service = { program: 'npm start', host: ingestHost, port: ingestPort, portSetting: 'INGEST_PORT', what: 'the ingest service' };

// Both ports are tried before the build, so a busy one costs a second, not a build.
await ensureListenable(port, host).catch((error: NodeJS.ErrnoException) => fail(listenProblem(error, site), 2));
await ensureListenable(ingestPort, ingestHost).catch((error: NodeJS.ErrnoException) => fail(listenProblem(error, service), 2));

const result = await buildSite(DEFAULT_PATHS);
if (result.errors.length > 0) {
  process.stderr.write(`sitegen: build failed:\n${result.errors.map((e) => `  ${formatProblem(e)}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`sitegen: built ${result.pages.length} pages in ${Math.round(result.durationMs)} ms\n`);

const apiTarget = `http://${ingestHost}:${ingestPort}`;
const server = createStaticServer({ root: DEFAULT_PATHS.outDir, apiTarget });
await listen(server, port, host).catch((error: NodeJS.ErrnoException) => fail(listenProblem(error, site), 2));

const ingest = spawn(process.execPath, [INGEST_BIN, 'serve'], {
  cwd: PROJECT_ROOT,
  env: {
    ...process.env,
    PORT: String(ingestPort),
    HOST: ingestHost,
    // The site server above is the only client and sets X-Forwarded-For: rate limits apply per visitor.
    TRUST_PROXY: '127.0.0.1',
    ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? browserUrl(host, port),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.stdout.write(`site: ${browserUrl(host, port)}  (forms → ingest on ${apiTarget})\n`);

/** How long the service may take to finish its requests after SIGTERM before it is killed. */
const INGEST_STOP_MS = 15_000;

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  if (ingest.exitCode === null && ingest.signalCode === null) {
    ingest.kill('SIGTERM');
    setTimeout(() => ingest.kill('SIGKILL'), INGEST_STOP_MS).unref();
  }
}
ingest.on('exit', (code, signal) => {
  if (!stopping) {
    process.stderr.write(`npm start: the ingest service exited (${signal ?? `code ${code}`}); stopping the site\n`);
    process.exitCode = 1;
    stop();
  }
});
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
