import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths.ts';

/**
 * The island loader, inlined at the end of pages that have islands (comments and indentation
 * removed: it is small enough not to need a minifier).
 */
export function loaderScript(): string {
  return readFileSync(join(PROJECT_ROOT, 'templates', 'islands', 'loader.js'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .join('\n');
}
