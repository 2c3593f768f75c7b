import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { islandEntryFiles } from '../../templates/islands/registry.ts';
import { startIngestService, STOP_SIGNALS } from '../serve/ingest-service.ts';
import { browserUrl, listen, listenProblem, localOrigins } from '../serve/listen.ts';
import { localAddresses, siteListenSettings, unavailablePort } from '../serve/local-addresses.ts';
import { formatProblem, type Problem } from '../site/errors.ts';
import { type ChangedFile, effectOfChange, mergeEffects } from './change-effects.ts';
import { DevBuild, type DevBuildResult } from './dev-build.ts';
import { createDevServer } from './dev-server.ts';
import { overlayProblem } from './overlay-problem.ts';
import { templateGraphs, type TemplateGraphs } from './page-templates.ts';
import { ReloadChannel } from './reload-channel.ts';
import { createTemplateLoader } from './template-loader.ts';
import { watchSources } from './watcher.ts';

/** What `sitegen dev` works on. */
export interface DevOptions {
  /** The project root: the render stage and templates are loaded from it. */
  root: string;
  contentDir: string;
  templatesDir: string;
  cssEntry: string;
  /** Where the lines for the person at the terminal go: progress, and problems that stop it from starting. */
  log: (line: string) => void;
  logError: (line: string) => void;
}

const PROGRAM = 'sitegen dev';

/**
 * `sitegen dev`: builds the site into memory, serves it with the forms working (the ingest
 * service as in `npm start`, on `PORT`/`HOST` and `INGEST_PORT`), watches `content/` and
 * `templates/`, rebuilds what each save affects, reloads the open tabs whose page changed and
 * shows problems in an overlay until they are fixed. Resolves with the exit code once SIGINT or
 * SIGTERM stopped everything it started (2: a port could not be used, and nothing was started).
 */
export async function runDev(options: DevOptions): Promise<number> {
  const { root, contentDir, templatesDir, cssEntry, log, logError } = options;
  const addresses = localAddresses(process.env, PROGRAM);
  const refuse = (problem: Problem) => {
    logError(formatProblem(problem));
    return 2;
  };
  if ('code' in addresses) return refuse(addresses);
  const busy = await unavailablePort(addresses, PROGRAM);
  if (busy) return refuse(busy);

  const work = mkdtempSync(join(tmpdir(), 'sitegen-dev-'));
  const assetDir = join(work, 'site');
  const loader = await createTemplateLoader(root, join(work, 'vite'));
  const build = new DevBuild({ root, contentDir, templatesDir, cssEntry, assetDir, loader });
  const channel = new ReloadChannel((file) => build.pages.get(file)?.version);
  const report = (result: DevBuildResult, what: string) => {
    if (result.problems.length > 0) {
      log(`${PROGRAM}: ${what}: ${result.problems.length} problem(s), shown in the browser:`);
      for (const problem of result.problems) log(`  ${formatProblem(problem)}`);
      channel.failed(result.problems.map((problem) => overlayProblem(problem, root)));
    } else {
      log(`${PROGRAM}: ${what}: ${result.rendered} page(s) rendered, ${result.changed.length} changed, in ${Math.round(result.durationMs)} ms`);
      channel.succeeded();
    }
  };
  report(await build.rebuild(), 'first build');

  const { host, port, ingestHost, ingestPort } = addresses;
  const apiTarget = `http://${ingestHost}:${ingestPort}`;
  const server = createDevServer({ pages: build.pages, assetDir, channel, apiTarget, listenHost: host, logError });
  try {
    await listen(server, port, host);
  } catch (error) {
    await loader.close();
    rmSync(work, { recursive: true, force: true });
    return refuse(listenProblem(error as NodeJS.ErrnoException, siteListenSettings(addresses, PROGRAM)));
  }

  let stop: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  // From here on a signal ends the loop below cleanly, even one that comes before the address is
  // printed; a closed terminal (SIGHUP) too, which would otherwise end this process at once.
  for (const signal of STOP_SIGNALS) process.once(signal, () => stop(0));
  const ingest = startIngestService({
    host: ingestHost,
    port: ingestPort,
    siteOrigin: browserUrl(host, port),
    // The islands' posts from http://127.0.0.1:PORT too (the service refuses other origins' JSON).
    otherOrigins: localOrigins(host, port).slice(1),
    onUnexpectedExit: (reason) => {
      logError(`${PROGRAM}: the ingest service exited (${reason}); stopping`);
      stop(1);
    },
  });

  // One rebuild at a time; saves during a rebuild are taken together by the next one.
  let running: Promise<void> | null = null;
  let watcher: ReturnType<typeof watchSources> | null = null;
  // Whatever ends the start or the run (a signal, the service gone, a fault thrown on the way),
  // everything started is stopped, the ingest service first of all: it would hold its port.
  try {
    const readGraphs = (): TemplateGraphs | null => {
      try {
        return templateGraphs(templatesDir, islandEntryFiles());
      } catch {
        return null; // an import names a missing file: every page is rebuilt, and the loader reports the error
      }
    };
    let graphs: TemplateGraphs | null = null;
    let queued: ChangedFile[] = [];
    const rebuildQueued = async () => {
      while (queued.length > 0) {
        const changes = queued;
        queued = [];
        const templates = changes.filter((c) => c.area === 'templates');
        if (templates.length > 0) {
          loader.invalidate(templates.map((c) => join(templatesDir, c.path)));
          graphs = readGraphs();
        }
        const pageIds = build.pageIds();
        const effect = mergeEffects(changes.map((change) => effectOfChange(change, graphs, pageIds)));
        report(await build.rebuild(effect), changes.map((c) => `${c.area}/${c.path}`).join(', '));
      }
    };
    graphs = readGraphs();
    watcher = watchSources({ content: contentDir, templates: templatesDir }, (changes) => {
      queued.push(...changes);
      running ??= rebuildQueued().finally(() => (running = null));
    });
    await watcher.ready;
    // The address only once the service answers too, so forms work from the first page opened.
    const ingestReady = await ingest.ready.catch((error: Error) => {
      logError(`${PROGRAM}: ${error.message}; stopping`);
      stop(1);
      return false;
    });
    if (ingestReady) log(`${PROGRAM}: ${browserUrl(host, port)}  (forms → ingest on ${apiTarget}; watching ${contentDir} and ${templatesDir}; Ctrl-C stops)`);
    return await stopped;
  } finally {
    const stopping = ingest.stop();
    await watcher?.close();
    channel.close();
    server.close();
    server.closeAllConnections();
    await running;
    await Promise.all([stopping, loader.close()]);
    rmSync(work, { recursive: true, force: true });
  }
}
