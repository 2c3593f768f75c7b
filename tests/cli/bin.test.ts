/**
 * The compiled `sitegen` (`node cli/bin.js`, which runs build/sitegen/, see compile.js):
 * `sitegen --help` loads none of React, the templates, Vite or Tailwind, which only the commands
 * that build need; `sitegen build` does load them (so the check can see them): React and the
 * Markdown parser inside its script (compile.js), so a build with nothing to do loads no package
 * from node_modules at all.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holds, moduleLog, packageFilesIn } from '../helpers/loaded-modules.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-bin-'));
  folders.push(dir);
  return dir;
}

const BUILD_PACKAGES = [/^react\//, /^react-dom\//, /^vite\//, /^@tailwindcss\//, /^marked\//];

describe('the compiled sitegen', () => {
  beforeAll(() => run(process.execPath, [join(ROOT, 'compile.js'), 'sitegen']), 60_000);

  it('prints its help without loading React, Vite, Tailwind or the Markdown parser', async () => {
    const log = moduleLog(scratch());
    const { stdout } = await run(process.execPath, ['--import', log.hooks, join(ROOT, 'cli/bin.js'), '--help']);
    expect(stdout).toContain('Usage: sitegen');
    const files = packageFilesIn(log.loaded());
    expect(holds(files, /^commander\//)).toBe(true);
    for (const heavy of BUILD_PACKAGES) expect(holds(files, heavy), String(heavy)).toBe(false);
  });

  it('loads React and the Markdown parser for a build', async () => {
    const dir = scratch();
    const log = moduleLog(dir);
    await run(process.execPath, ['--import', log.hooks, join(ROOT, 'cli/bin.js'), 'build', '--lang', 'en', '--out', join(dir, 'out')], { cwd: ROOT });
    const files = packageFilesIn(log.loaded());
    for (const used of [/^react-dom\//, /^marked\//]) expect(holds(files, used), String(used)).toBe(true);
  }, 120_000);

  it('answers a build with nothing to do from the build record, loading no package from node_modules (React and the parsers are in the script)', async () => {
    const dir = scratch();
    const args = [join(ROOT, 'cli/bin.js'), 'build', '--lang', 'en', '--out', join(dir, 'out')];
    await run(process.execPath, args, { cwd: ROOT });
    const log = moduleLog(dir);
    const { stdout } = await run(process.execPath, ['--import', log.hooks, ...args], { cwd: ROOT });
    expect(stdout).toContain('nothing written');
    const fromNodeModules = log.loaded().filter((url) => url.includes('/node_modules/'));
    expect(fromNodeModules).toEqual([]);
    // The script holds React (its production build alone) and the Markdown parser.
    const files = packageFilesIn(log.loaded());
    for (const inside of [/^react\//, /^react-dom\//, /^marked\//]) expect(holds(files, inside), String(inside)).toBe(true);
    expect(holds(files, /\.development\.js$/)).toBe(false);
  }, 120_000);

  it('builds from its code cache when an asset must be made anew, which loads the image renderer (import() in the script)', async () => {
    const dir = scratch();
    await run(process.execPath, [join(ROOT, 'cli/bin.js'), 'build', '--lang', 'en', '--out', join(dir, 'first')], { cwd: ROOT });
    expect(readdirSync(join(ROOT, 'build', 'sitegen')).some((name) => name.endsWith('.v8-cache'))).toBe(true);
    // A sharing image's text no build has made yet: the assets' caches miss, and the renderer is imported.
    const content = join(dir, 'content');
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    const strings = join(content, 'locales', 'en.json');
    const en = JSON.parse(readFileSync(strings, 'utf8')) as { hero: { title: string } };
    writeFileSync(strings, JSON.stringify({ ...en, hero: { ...en.hero, title: `${en.hero.title} ${Date.now()}` } }, null, 2));
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'cli/bin.js'), 'build', '--no-cache', '--lang', 'en', '--content', content, '--out', join(dir, 'out')], { cwd: ROOT });
    expect(stdout).toMatch(/built \d+ pages in 1 language/);
    expect(stderr).toBe('');
    expect(readdirSync(join(dir, 'out', 'assets', 'islands')).length).toBeGreaterThan(3);
    expect(readdirSync(join(dir, 'out')).filter((name) => name.endsWith('.png')).length).toBeGreaterThan(0);
  }, 180_000);
});
