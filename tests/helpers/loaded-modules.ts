/**
 * What a compiled program (build/ingest/, build/sitegen/; see compile.js) loads when it runs:
 * module hooks that log every module a process loads, and the npm package files inside the
 * compiled chunks among them, read from each chunk's source map.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BUILD = fileURLToPath(new URL('../../build/', import.meta.url));

/** Writes into `dir` the file to pass as `node --import FILE` and returns it, with the log's reader. */
export function moduleLog(dir: string): { hooks: string; loaded(): string[] } {
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + '\\n'); return next(url, context); }
`,
  );
  // The hooks see ES modules; CommonJS modules (require) and a script run through node:vm
  // (`sitegen build` runs build/sitegen/main.cjs so: cli/code-cache.js) are logged here.
  const hooks = join(dir, 'register.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
const log = ${JSON.stringify(log)};
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log } });
const note = (file) => appendFileSync(log, pathToFileURL(file).href + '\\n');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const exports = load.call(this, request, parent, isMain);
  try { if (!Module.isBuiltin(request)) note(Module._resolveFilename(request, parent, isMain)); } catch {}
  return exports;
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (options?.filename) note(options.filename);
  }
};
`,
  );
  return { hooks, loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/**
 * The npm package files whose code the loaded modules hold, as paths inside node_modules/
 * (`fastify/lib/route.js`): a module loaded from node_modules/ itself, or every package file a
 * compiled chunk's source map lists.
 */
export function packageFilesIn(urls: string[]): string[] {
  const inNodeModules = (path: string) => /node_modules\/(.+)$/.exec(path)?.[1];
  const files: string[] = [];
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    const sources = file.startsWith(BUILD) ? (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources : [file];
    for (const source of sources) {
      const packageFile = inNodeModules(source);
      if (packageFile !== undefined) files.push(packageFile);
    }
  }
  return files;
}

/** Whether one of `files` (from packageFilesIn) matches `pattern`: a package, or a folder of one. */
export const holds = (files: string[], pattern: RegExp): boolean => files.some((file) => pattern.test(file));
