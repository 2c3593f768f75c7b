import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileMemo } from '../files/file-memo.ts';
import type { Fingerprint } from '../files/fingerprint.ts';

// Relative module references in source text: static and side-effect imports, re-exports,
// `import('./x')` and `new URL('./x', import.meta.url)` (workers, loaded files).
const RELATIVE_REFERENCE = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The source without its comment lines (doc comments may show imports as examples). */
function code(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/** The relative references of a module, as written (`./x.ts`), kept while the file is unchanged. */
const referencesOf = fileMemo((bytes) => [...code(bytes.toString('utf8')).matchAll(RELATIVE_REFERENCE)].map((match) => match[2]!));

/** The references of each module read (or started with) in this process, with the size and time they were read at: what the build record keeps. */
export function knownReferences(): ReadonlyMap<string, Fingerprint<string[]>> {
  return referencesOf.entries;
}

/**
 * Starts this process's references of `path` with those the build record kept: a module whose
 * size and time are as recorded is not read and parsed again (the build's key walks 400 modules).
 */
export function seedReferences(path: string, kept: Fingerprint<string[]>): void {
  referencesOf.seed(path, kept);
}

/**
 * Every project file `entries` reach through relative imports, entries included, sorted: the
 * inputs a build product depends on, derived from the code rather than listed by hand, so a moved
 * or newly imported module changes the set. Package imports (`react`, `zod/mini`) are left out:
 * `package-lock.json` stands for them.
 *
 * @example moduleGraph([new URL('./islands-build.ts', import.meta.url)])
 * // ['/…/cli/assets/islands-build.ts', '/…/cli/paths.ts', '/…/templates/islands/registry.ts']
 */
export function moduleGraph(entries: ReadonlyArray<string | URL>): string[] {
  const seen = new Set<string>();
  const pending = entries.map((entry) => (entry instanceof URL ? fileURLToPath(entry) : resolve(entry)));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    const references = referencesOf(file);
    if (!references) throw new Error(`${file}: imported but missing (a module moved without its importers?)`);
    seen.add(file);
    for (const reference of references) pending.push(resolve(dirname(file), reference));
  }
  return [...seen].sort();
}
