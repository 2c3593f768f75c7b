import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The gzip size of one built page and of what it loads, split at first render. */
export interface PageWeight {
  htmlGzip: number;
  cssGzip: number;
  /** Scripts that run before the page renders (classic or module scripts in the head, not deferred by islands). */
  jsBeforeRenderGzip: number;
  /** Island scripts and their imports, loaded after the page has rendered. */
  jsAfterRenderGzip: number;
}

const gz = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

function assetSize(outDir: string, href: string): number {
  const file = join(outDir, href.replace(/^\//, ''));
  return existsSync(file) ? gz(readFileSync(file)) : 0;
}

/** Measures a built page: its HTML, linked stylesheets, blocking scripts and the island modules it declares. */
export function pageWeight(outDir: string, file: string): PageWeight {
  const html = readFileSync(join(outDir, file), 'utf8');
  const stylesheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  const blockingScripts = [...html.matchAll(/<script(?![^>]*type="module")(?![^>]*defer)[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  const islandModules = [
    ...new Set([
      ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/data-island-src="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!),
    ]),
  ];
  return {
    htmlGzip: gz(html),
    cssGzip: stylesheets.reduce((sum, href) => sum + assetSize(outDir, href), 0),
    jsBeforeRenderGzip: blockingScripts.reduce((sum, src) => sum + assetSize(outDir, src), 0),
    jsAfterRenderGzip: islandModules.reduce((sum, src) => sum + assetSize(outDir, src), 0),
  };
}
