import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The project's root folder (where package.json is). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Default locations of the build's inputs and output, relative to the project root. */
export const DEFAULT_PATHS = {
  contentDir: join(PROJECT_ROOT, 'content'),
  cssEntry: join(PROJECT_ROOT, 'templates', 'styles.css'),
  outDir: join(PROJECT_ROOT, 'dist'),
} as const;

/** Where build outputs and values that depend only on source files are kept between builds. */
export const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'sitegen');

/** The ingest service's command line, which `npm start` runs beside the site server. */
export const INGEST_BIN = join(PROJECT_ROOT, 'ingest', 'bin.js');
