import type { ServerResponse } from 'node:http';
import type { OverlayProblem } from './overlay-problem.ts';

/** One open browser tab: the page file it shows and the version of that page it loaded. */
interface Tab {
  res: ServerResponse;
  file: string;
  version: string;
}

/** How often an idle stream carries a comment, so that no server or proxy timeout closes it. */
const HEARTBEAT_MS = 15_000;

/**
 * The server-sent events stream from `sitegen dev` to every open tab (`/__sitegen/events`):
 * `reload` when the page the tab shows changed (its version is no longer the one it loaded),
 * `problems` with the build's problems for the overlay, `ok` when they are fixed. A tab that
 * connects gets the current state at once, so one loaded during a rebuild, or left open across a
 * restart, catches up.
 */
export class ReloadChannel {
  readonly #tabs = new Set<Tab>();
  readonly #versionOf: (file: string) => string | undefined;
  #problems: readonly OverlayProblem[] = [];
  readonly #heartbeat = setInterval(() => {
    for (const tab of this.#tabs) tab.res.write(': ping\n\n');
  }, HEARTBEAT_MS).unref();

  /** `versionOf` gives the current version of a page file (undefined: no such page now, as a tab shown "not built yet" has). */
  constructor(versionOf: (file: string) => string | undefined) {
    this.#versionOf = versionOf;
  }

  /** Opens a tab's stream on `res` and sends it the current state. */
  connect(res: ServerResponse, file: string, version: string): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    // Reconnect soon after the server comes back, not after the browser's default 3 s.
    res.write('retry: 300\n\n');
    const tab = { res, file, version };
    this.#tabs.add(tab);
    res.on('close', () => this.#tabs.delete(tab));
    if (this.#problems.length > 0) send(res, 'problems', this.#problems);
    else if ((this.#versionOf(file) ?? '') !== version) send(res, 'reload');
  }

  /** After a successful rebuild: clears the overlays and reloads the tabs whose page changed. */
  succeeded(): void {
    const hadProblems = this.#problems.length > 0;
    this.#problems = [];
    for (const tab of this.#tabs) {
      if ((this.#versionOf(tab.file) ?? '') !== tab.version) send(tab.res, 'reload');
      else if (hadProblems) send(tab.res, 'ok');
    }
  }

  /** After a failed rebuild: shows the problems in every tab (each keeps the page it shows). */
  failed(problems: readonly OverlayProblem[]): void {
    this.#problems = problems;
    for (const tab of this.#tabs) send(tab.res, 'problems', problems);
  }

  /** Ends every stream (when `sitegen dev` stops). */
  close(): void {
    clearInterval(this.#heartbeat);
    for (const tab of this.#tabs) tab.res.end();
    this.#tabs.clear();
  }
}

function send(res: ServerResponse, event: string, data: unknown = null): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
