import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileMemo } from '../files/file-memo.ts';

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
const referencesOf = fileMemo((bytes) => [...code(bytes.toString('utf8')).matchAll(RELATIVE_REFERENCE)].map((match) => match[2]!), {
  name: 'references',
  isValue: (value): value is string[] => Array.isArray(value) && value.every((reference) => typeof reference === 'string'),
});

/**
 * `resolve(dir, reference)` for a module's relative reference (`./x.ts`, `../y/z.ts`), by cutting
 * the folder's path rather than normalising the whole: a build resolves a thousand of them.
 * A reference with `.` or `..` further in goes through `resolve`.
 */
function resolveRelative(dir: string, reference: string): string {
  let base = dir;
  let rest = reference;
  for (;;) {
    if (rest.startsWith('./')) rest = rest.slice(2);
    else if (rest.startsWith('../')) {
      base = dirname(base);
      rest = rest.slice(3);
    } else break;
  }
  if (rest.includes('/.') || rest.startsWith('.')) return resolve(dir, reference);
  return `${base}${base.endsWith(sep) ? '' : sep}${sep === '/' ? rest : rest.split('/').join(sep)}`;
}

/** A module's references resolved to paths, by its references' list (the memo's, the same while the file is unchanged): a build follows its modules seven times. */
const resolvedOf = new WeakMap<readonly string[], string[]>();

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
    let resolved = resolvedOf.get(references);
    if (!resolved) resolvedOf.set(references, (resolved = references.map((reference) => resolveRelative(dirname(file), reference))));
    pending.push(...resolved);
  }
  return [...seen].sort();
}
