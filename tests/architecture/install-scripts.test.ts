/**
 * The dependencies allowed to run install scripts (docs/developers.md, "Supported releases and
 * install scripts"): `allowScripts` in package.json names exactly the packages package-lock.json
 * marks `hasInstallScript`, so npm installs without "not yet covered by allowScripts", and a new
 * dependency that brings an install script fails here until someone has read the script and
 * allowed or denied it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';

const read = (path: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, path), 'utf8')) as unknown;
const manifest = read('package.json') as { allowScripts?: Record<string, boolean> };
const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

/** The package name of a lockfile key: `node_modules/a/node_modules/@b/c` → `@b/c`. */
const packageName = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  it('allowScripts reviews exactly the installed packages that have one, no more', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.hasInstallScript === true)
      .map(([key]) => packageName(key));
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
  });

  it('allows the three that the project needs: the SQLite addon, the compiler and the HTML checker', () => {
    expect(manifest.allowScripts).toEqual({ 'better-sqlite3': true, esbuild: true, 'vnu-jar': true });
  });
});
