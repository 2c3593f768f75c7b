import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { ISLANDS, type IslandAssets, type IslandName } from '../../templates/islands/registry.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { moduleGraph } from './module-graph.ts';

/** Where island modules are written inside the output folder, and their public URL prefix. */
const ISLANDS_DIR = 'assets/islands';

/**
 * The islands of the header, which every page has: their code and what they import (the hydrator,
 * the icons, the disclosure hook, the button colour) is one chunk, `common`, that every page loads
 * anyway. Split in the five modules Rolldown made of them, they cost every page about 820 B gzip
 * more (a request, an import list and a gzip stream each, none compressed against the others).
 */
const HEADER_ISLANDS: readonly IslandName[] = ['LanguageMenu', 'MobileMenu'];

/**
 * The project modules of the `common` chunk: those the header's islands reach, but no island's
 * entry (each entry stays its own module, the one its pages' markers name).
 */
function commonModules(): Set<string> {
  const entries = new Set(Object.values(ISLANDS).map((island) => fileURLToPath(island.entry)));
  return new Set(moduleGraph(HEADER_ISLANDS.map((name) => ISLANDS[name].entry)).filter((file) => !entries.has(file)));
}

/** The built island modules: the URL of each island's entry, and every file with its size. */
export interface IslandBundle {
  assets: IslandAssets;
  files: { file: string; bytes: number }[];
}

/**
 * Bundles one small ES module per island, one shared chunk for React and signals and one for the
 * header's islands and the helpers they share with the others (`HEADER_ISLANDS`), all with content
 * hashes, into `<outDir>/assets/islands/`; the forms' shared code (the contract, zod, the toasts)
 * is the chunk Rolldown makes for what only they import.
 */
export async function buildIslands(outDir: string): Promise<IslandBundle> {
  const input = Object.fromEntries(Object.entries(ISLANDS).map(([name, island]) => [name, fileURLToPath(island.entry)]));
  const common = commonModules();
  const result = await build({
    configFile: false,
    root: PROJECT_ROOT,
    logLevel: 'warn',
    mode: 'production',
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // Production JSX whatever NODE_ENV the building process has (vitest sets "test"): the
    // development transform calls jsxDEV, which React's production build does not have.
    oxc: { jsx: { runtime: 'automatic', development: false } },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input,
        preserveEntrySignatures: 'exports-only',
        output: {
          entryFileNames: `${ISLANDS_DIR}/[name].[hash].js`,
          chunkFileNames: `${ISLANDS_DIR}/[name].[hash].js`,
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|@preact)[\\/]/ },
              { name: 'common', test: (id) => common.has(id) },
            ],
          },
        },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const assets = {} as Record<IslandName, string>;
  for (const chunk of chunks) {
    if (chunk.isEntry && chunk.name in ISLANDS) assets[chunk.name as IslandName] = `/${chunk.fileName}`;
  }
  return { assets, files: chunks.map((c) => ({ file: c.fileName, bytes: Buffer.byteLength(c.code) })) };
}
