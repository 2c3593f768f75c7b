import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The gzip size of one built page and of what it loads, split at first render. */
export interface PageWeight {
  /** The HTML, including the CSS inlined in its head. */
  htmlGzip: number;
  /** Stylesheets linked in the head, which block rendering. */
  cssGzip: number;
  /** Scripts that block or run before the page renders (classic scripts with `src` in the document). */
  jsBeforeRenderGzip: number;
  /** React's shared runtime chunk (react, react-dom/client, signals), loaded only when an island hydrates. */
  jsRuntimeGzip: number;
  /** Island code on top of the runtime: entries and their shared chunks. */
  jsIslandsGzip: number;
}

const gz = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

/** Every module a built ES module imports, transitively, as paths relative to `outDir`. */
function moduleGraph(outDir: string, entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry) || !existsSync(join(outDir, entry))) return seen;
  seen.add(entry);
  const code = readFileSync(join(outDir, entry), 'utf8');
  for (const match of code.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) {
    const spec = match[1]!;
    const target = spec.startsWith('/') ? spec.slice(1) : posix.join(dirname(entry), spec);
    moduleGraph(outDir, target, seen);
  }
  return seen;
}

/** Measures a built page: its HTML, linked stylesheets, blocking scripts and the island modules it can load. */
export function pageWeight(outDir: string, file: string): PageWeight {
  const html = readFileSync(join(outDir, file), 'utf8');
  const size = (href: string) => (existsSync(join(outDir, href)) ? gz(readFileSync(join(outDir, href))) : 0);
  // Stylesheets that block rendering: linked in the head (the build inlines the page's CSS instead).
  const head = html.slice(0, html.indexOf('</head>'));
  const stylesheets = [...head.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((m) => m[1]!);
  const blocking = [...html.matchAll(/<script(?![^>]*type="module")[^>]*src="\/([^"]+)"/g)].map((m) => m[1]!);
  const modules = new Set<string>();
  for (const m of html.matchAll(/data-island-src="\/([^"]+)"/g)) moduleGraph(outDir, m[1]!, modules);
  const runtime = [...modules].filter((f) => /\/react\.[\w-]+\.js$/.test(f));
  const islands = [...modules].filter((f) => !runtime.includes(f));
  const sum = (files: string[]) => files.reduce((total, f) => total + size(f), 0);
  return {
    htmlGzip: gz(html),
    cssGzip: sum(stylesheets),
    jsBeforeRenderGzip: sum(blocking),
    jsRuntimeGzip: sum(runtime),
    jsIslandsGzip: sum(islands),
  };
}
