import { readFileSync } from 'node:fs';
import { LOADER_FILE } from '../../templates/islands/registry.ts';

/**
 * The island loader, inlined at the end of pages that have islands (comments and indentation
 * removed: it is small enough not to need a minifier).
 */
export function loaderScript(): string {
  return readFileSync(LOADER_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .join('\n');
}
