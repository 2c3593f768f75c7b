import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { islandEntryFiles } from '../../templates/islands/registry.ts';
import { cachedFolder, copyCached, inputsHash } from './asset-cache.ts';
import type { IslandBundle } from './islands-build.ts';
import { moduleGraph } from './module-graph.ts';
import { MAX_LEVELS, precompress } from './precompress.ts';

/**
 * What the island bundle is built from: the island entries and every module they import (the
 * contract in ingest/ among them), the bundler's configuration and the precompression. A change
 * to any of these rebuilds it.
 */
const islandInputs = () => [
  ...moduleGraph([...islandEntryFiles(), new URL('./islands-build.ts', import.meta.url), new URL('./precompress.ts', import.meta.url)]),
  'package-lock.json',
];

/** What the stylesheet is built from: the entry, the folder Tailwind scans for class names (the entry's), the compiler module. */
const cssInputs = (cssEntry: string) => [cssEntry, dirname(cssEntry), ...moduleGraph([new URL('./css.ts', import.meta.url)]), 'package-lock.json'];

/**
 * The island bundle for the current sources, from the assets' cache or freshly built with Vite
 * (imported only then: it is the slowest part of a cold start), copied into `outDir` (or, from
 * the cache, handed to `place`: a cached build links its files into the output).
 */
export async function islandBundle(outDir: string, useCache: boolean, place = (dir: string) => copyCached(dir, outDir)): Promise<IslandBundle> {
  // Content-hashed and built once: worth brotli's slowest, smallest level (~0.3 s, cached). A
  // build without the cache compresses them the same way, so its output is the same, byte for byte.
  const build = async (dir: string) => {
    const bundle = await (await import('./islands-build.ts')).buildIslands(dir);
    precompress(dir, bundle.files.map((f) => f.file), MAX_LEVELS);
    return bundle;
  };
  if (!useCache) return build(outDir);
  const { dir } = await cachedFolder('islands', inputsHash(islandInputs()), async (staging) => {
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(await build(staging)));
  });
  place(dir);
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as IslandBundle;
}

/** The compiled stylesheet for the current templates, from the assets' cache or compiled with Tailwind. */
export async function stylesheet(cssEntry: string, useCache: boolean): Promise<string> {
  const compile = async () => (await import('./css.ts')).compileCss(cssEntry);
  if (!useCache) return compile();
  const { dir } = await cachedFolder('css', inputsHash(cssInputs(cssEntry)), async (staging) => {
    writeFileSync(join(staging, 'styles.css'), await compile());
  });
  return readFileSync(join(dir, 'styles.css'), 'utf8');
}
