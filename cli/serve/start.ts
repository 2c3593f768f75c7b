import { buildSite } from '../pipeline/build-site.ts';
import { formatProblem, type Problem } from '../site/errors.ts';
import { DEFAULT_PATHS } from '../paths.ts';
import { startIngestService, STOP_SIGNALS } from './ingest-service.ts';
import { listen, listenProblem, localOrigins } from './listen.ts';
import { localAddresses, siteListenSettings, unavailablePort } from './local-addresses.ts';
import { createStaticServer } from './static-server.ts';

/**
 * `npm start`: builds the site, starts the ingest service (SQLite and the file mail sink under
 * `data/` unless configured otherwise) and serves `dist/` with `/api` forwarded to it, on one
 * origin. `PORT` and `HOST` place the site (default 127.0.0.1:4321), `INGEST_PORT` the service
 * (always on 127.0.0.1, default 8787). A port that cannot be used is one line and exit 2, before
 * anything is built or started. The site's address is printed once the site and the service both
 * answer; SIGINT (Ctrl-C) and SIGTERM stop both servers, the service with one graceful drain.
 */

const PROGRAM = 'npm start';

/** Ends the program with one line on stderr; nothing has been started when this is called. */
function fail(problem: Problem, exitCode: number): never {
  process.stderr.write(`${formatProblem(problem)}\n`);
  process.exit(exitCode);
}

const addresses = localAddresses(process.env, PROGRAM);
if ('code' in addresses) fail(addresses, 2);
const { host, port, ingestHost, ingestPort } = addresses;

const busy = await unavailablePort(addresses, PROGRAM);
if (busy) fail(busy, 2);

const result = await buildSite(DEFAULT_PATHS);
if (result.errors.length > 0) {
  process.stderr.write(`sitegen: build failed:\n${result.errors.map((e) => `  ${formatProblem(e)}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`sitegen: built ${result.pages.length} pages in ${Math.round(result.durationMs)} ms\n`);

const apiTarget = `http://${ingestHost}:${ingestPort}`;
// The site at every spelling that reaches it from this machine (http://localhost:4321 first, the
// one announced and linked from mails; http://127.0.0.1:4321 too): the service accepts forms from
// each, and its redirects to one of them are sent on as paths, so a visitor stays where they are.
const [siteOrigin, ...otherOrigins] = localOrigins(host, port) as [string, ...string[]];
const server = createStaticServer({ root: DEFAULT_PATHS.outDir, apiTarget, localOrigins: [siteOrigin, ...otherOrigins] });
await listen(server, port, host).catch((error: NodeJS.ErrnoException) => fail(listenProblem(error, siteListenSettings(addresses, PROGRAM)), 2));

let stopping = false;
const ingest = startIngestService({
  host: ingestHost,
  port: ingestPort,
  siteOrigin,
  otherOrigins,
  onUnexpectedExit: (reason) => {
    process.stderr.write(`${PROGRAM}: the ingest service exited (${reason}); stopping the site\n`);
    process.exitCode = 1;
    stop();
  },
});
for (const signal of STOP_SIGNALS) process.on(signal, stop);

// The address only once both answer: a visitor who opens it at once gets working forms.
const ready = await ingest.ready.catch((error: Error) => {
  process.stderr.write(`${PROGRAM}: ${error.message}; stopping\n`);
  process.exitCode = 1;
  stop();
  return false;
});
if (ready && !stopping) process.stdout.write(`site: ${siteOrigin}  (forms → ingest on ${apiTarget}; Ctrl-C stops)\n`);

function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  void ingest.stop();
}
