import { relative } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import type { renderPages } from '../pipeline/render-pages.ts';
import type { Problem } from '../site/errors.ts';

/** The render stage, as loaded from the current template sources. */
type RenderPages = typeof renderPages;

/**
 * The render stage loaded through Vite's SSR module loader rather than Node's own, so that an
 * edited template is compiled and run again while the process keeps running (Node's ESM cache
 * cannot be cleared; this is how Astro's dev server loads pages). Only the edited modules and
 * the modules importing them are evaluated again: about 10 ms after an edit, against about a
 * second for the first load. Packages (react, i18next, marked) load natively, once.
 */
export interface TemplateLoader {
  /** The render stage as the template files are now; rejects with the compile error of a broken template. */
  renderPages(): Promise<RenderPages>;
  /** Forgets the compiled versions of these files (absolute paths) and of every module importing them. */
  invalidate(files: readonly string[]): void;
  close(): Promise<void>;
}

/** Where the render stage is, as a URL path under the project root for Vite. */
const RENDER_STAGE = '/cli/pipeline/render-pages.ts';

/** Starts a Vite server without HTTP, file watcher or browser dependency scan, to load `root`'s render stage. */
export async function createTemplateLoader(root: string, cacheDir: string): Promise<TemplateLoader> {
  const vite: ViteDevServer = await createServer({
    configFile: false,
    root,
    cacheDir,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    // The same JSX as the build: production React (bin.js sets NODE_ENV) has no jsxDEV.
    oxc: { jsx: { runtime: 'automatic', development: false } },
  });
  const graph = vite.environments.ssr.moduleGraph;
  return {
    async renderPages() {
      const stage = await vite.ssrLoadModule(RENDER_STAGE, { fixStacktrace: true });
      return stage.renderPages as RenderPages;
    },
    invalidate(files) {
      for (const file of files) for (const mod of graph.getModulesByFile(file) ?? []) graph.invalidateModule(mod);
    },
    close: () => vite.close(),
  };
}

// ANSI colour sequences, which Vite's compile messages carry for a terminal.
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * A template that failed to compile (Vite's parse error, with its location) or threw while a page
 * rendered (the first stack frame inside `root`, outside node_modules) as a problem at
 * `file:line`, the file relative to `root`.
 *
 * @example templateProblem(parseError, '/repo')
 * // { code: 'template_failed', file: 'templates/pages/AboutPage.tsx', line: 12, message: "Expected corresponding JSX closing tag for 'div'." }
 */
export function templateProblem(error: unknown, root: string): Problem {
  const compile = (error as { errors?: { message?: string; loc?: { file?: string; line?: number } }[] }).errors?.find((e) => e.loc?.file);
  if (compile?.loc?.file) {
    const message = (compile.message ?? '').replace(ANSI, '').split('\n')[0]!.replace(/^\[[A-Z_]+\]\s*/, '');
    return { code: 'template_failed', file: relative(root, compile.loc.file), line: compile.loc.line, message: message || 'does not compile' };
  }
  const thrown = error instanceof Error ? error : new Error(String(error));
  const frame = (thrown.stack ?? '')
    .split('\n')
    .map((line) => /\(?((?:\/|[A-Za-z]:\\)[^():]+):(\d+):\d+\)?$/.exec(line.trim()))
    .find((match) => match && match[1]!.startsWith(root) && !match[1]!.includes('node_modules'));
  const message = thrown.message.replace(ANSI, '').split('\n')[0]!;
  return frame
    ? { code: 'template_failed', file: relative(root, frame[1]!), line: Number(frame[2]), message }
    : { code: 'template_failed', file: 'templates', message };
}
