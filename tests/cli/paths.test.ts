import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moduleGraph } from '../../cli/assets/module-graph.ts';
import { DEFAULT_PATHS, INGEST_BIN, PROJECT_ROOT } from '../../cli/paths.ts';
import { islandEntryFiles, ISLANDS, LOADER_FILE } from '../../templates/islands/registry.ts';

// Module paths that code names as strings, not imports: each must name a file that is there, so
// moving one without its reference fails here rather than at build or start time.
describe('paths that stand for modules', () => {
  it('name files and folders that exist', () => {
    for (const path of [DEFAULT_PATHS.contentDir, DEFAULT_PATHS.cssEntry, INGEST_BIN, fileURLToPath(LOADER_FILE)]) expect(existsSync(path), path).toBe(true);
  });

  it.each(Object.keys(ISLANDS))('island %s has an entry module that hydrates the component of that name', (name) => {
    const entry = fileURLToPath(ISLANDS[name as keyof typeof ISLANDS].entry);
    const source = readFileSync(entry, 'utf8');
    expect(source).toMatch(/export (function|const) hydrate\b|export \{[^}]*\bhydrate\b/);
    expect(source).toContain(`components/${name}.tsx`);
  });

  it('derives the island bundle cache key from what the entries import, the contract included', () => {
    const inputs = moduleGraph(islandEntryFiles()).map((file) => file.slice(PROJECT_ROOT.length));
    expect(inputs).toContain('ingest/contract/schemas.ts');
    expect(inputs).toContain('ingest/contract/countries.ts');
    expect(inputs).toContain('templates/islands/hydrate.tsx');
    expect(inputs.every((file) => !file.startsWith('cli/'))).toBe(true);
  });

  it('resolves every reference to the file\'s own path, as path.resolve does (`./`, `../` and `../../` among them)', () => {
    const graph = moduleGraph([new URL('../../cli/pipeline/build-site.ts', import.meta.url)]);
    expect(graph.length).toBeGreaterThan(50);
    for (const file of graph) {
      expect(resolve(file), file).toBe(file);
      expect(existsSync(file), file).toBe(true);
    }
    expect(graph).toContain(join(PROJECT_ROOT, 'templates', 'islands', 'registry.ts'));
  });

  it('refuses a graph with an import of a file that is not there', () => {
    expect(() => moduleGraph([new URL('../architecture/fixture/cli/verify/html-scan.ts', import.meta.url)])).toThrow(/imported but missing/);
  });
});
