/**
 * cli/code-cache.js, which `sitegen build` runs its compiled script through: the first run writes
 * a V8 code cache named by the script's text, the next one starts from it; a cache of other text
 * or a broken one is never run; a stack trace still names the .ts source and line.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { testFolder } from '../helpers/test-folders.ts';

const runner = pathToFileURL(fileURLToPath(new URL('../../cli/code-cache.js', import.meta.url))).href;
const run = promisify(execFile);

/** Runs `file` through runWithCodeCache in a new Node process; its output, whatever the exit code. */
async function runScript(file: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const program = `import { runWithCodeCache } from ${JSON.stringify(runner)}; runWithCodeCache(${JSON.stringify(file)});`;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', program]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

const caches = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.v8-cache'));

/** A script that prints `word` after a loop worth compiling, as esbuild compiles it for sitegen: CommonJS, minified, a linked source map. */
async function compiledScript(dir: string, word: string, body = ''): Promise<string> {
  const source = join(dir, 'entry.ts');
  writeFileSync(source, `export function greet(times: number): string {\n  let text = '';\n  for (let i = 0; i < times; i++) text += '${word}';\n${body}  return text.slice(0, ${word.length});\n}\nconsole.log(greet(3));\n`);
  const file = join(dir, 'entry.cjs');
  await build({ entryPoints: [source], outfile: file, bundle: true, format: 'cjs', platform: 'node', minify: true, keepNames: true, sourcemap: 'linked', sourcesContent: false, logLevel: 'silent' });
  return file;
}

describe('runWithCodeCache', () => {
  it('writes a code cache on the first run, and the next run starts from it without writing it again', async () => {
    const dir = testFolder('code-cache-');
    const file = await compiledScript(dir, 'hello');
    expect((await runScript(file)).stdout).toBe('hello\n');
    const [cache] = caches(dir);
    expect(cache).toMatch(/^entry\.cjs\.[0-9a-f]{16}\.v8-cache$/);
    const written = statSync(join(dir, cache!));
    expect((await runScript(file)).stdout).toBe('hello\n');
    const after = statSync(join(dir, cache!));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it('never runs the cache of another script of the same length: the new text runs, its own cache replaces the old one', async () => {
    const dir = testFolder('code-cache-');
    const first = readFileSync(await compiledScript(dir, 'apple'), 'utf8');
    await runScript(join(dir, 'entry.cjs'));
    const [oldCache] = caches(dir);
    const file = await compiledScript(dir, 'lemon');
    expect(readFileSync(file, 'utf8').length).toBe(first.length);
    expect((await runScript(file)).stdout).toBe('lemon\n');
    expect(caches(dir)).toHaveLength(1);
    expect(caches(dir)[0]).not.toBe(oldCache);
  });

  it('runs the script when its cache is broken, and writes a good one', async () => {
    const dir = testFolder('code-cache-');
    const file = await compiledScript(dir, 'hello');
    await runScript(file);
    const cache = join(dir, caches(dir)[0]!);
    writeFileSync(cache, Buffer.alloc(2048, 7));
    expect((await runScript(file)).stdout).toBe('hello\n');
    expect(readFileSync(cache).equals(Buffer.alloc(2048, 7))).toBe(false);
    expect((await runScript(file)).stdout).toBe('hello\n');
  });

  it('prints a stack trace at the TypeScript source: file, line and function', async () => {
    const dir = testFolder('code-cache-');
    const file = await compiledScript(dir, 'hello', "  if (times > 0) throw new Error('no greeting today');\n");
    const { stderr, code } = await runScript(file);
    expect(code).not.toBe(0);
    expect(stderr).toContain('Error: no greeting today');
    expect(stderr).toContain(`at greet (${join(dir, 'entry.ts')}:4:`);
  });
});
