import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildSite } from '../build/build-site.ts';
import { formatProblem } from '../site/errors.ts';
import { DEFAULT_PATHS, INGEST_BIN, PROJECT_ROOT } from '../paths.ts';
import { createStaticServer } from './static-server.ts';

/**
 * `npm start`: builds the site, starts the ingest service (SQLite and the file mail sink under
 * `data/` unless configured otherwise) and serves `dist/` with `/api` forwarded to it, on one origin.
 */
const port = Number(process.env.PORT ?? 4321);
const ingestPort = Number(process.env.INGEST_PORT ?? 8787);
const apiTarget = `http://127.0.0.1:${ingestPort}`;

const result = await buildSite(DEFAULT_PATHS);
if (result.errors.length > 0) {
  process.stderr.write(`sitegen: build failed:\n${result.errors.map((e) => `  ${formatProblem(e)}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`sitegen: built ${result.pages.length} pages in ${Math.round(result.durationMs)} ms\n`);

const ingest: ChildProcess = spawn(process.execPath, [INGEST_BIN, 'serve'], {
  cwd: PROJECT_ROOT,
  env: {
    ...process.env,
    PORT: String(ingestPort),
    HOST: '127.0.0.1',
    // The site server below is the only client and sets X-Forwarded-For: rate limits apply per visitor.
    TRUST_PROXY: '127.0.0.1',
    ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? `http://localhost:${port}`,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

const server = createStaticServer({ root: DEFAULT_PATHS.outDir, apiTarget });
server.listen(port, () => {
  process.stdout.write(`site: http://localhost:${port}  (forms → ingest on ${apiTarget})\n`);
});

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  ingest.kill('SIGTERM');
}
ingest.on('exit', (code) => {
  if (!stopping) {
    process.stderr.write(`ingest exited (code ${code}); stopping the site\n`);
    process.exitCode = 1;
    stop();
  }
});
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
