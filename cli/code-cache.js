// Runs a compiled CommonJS script (build/sitegen/main.cjs, made by compile.js) with a V8 code
// cache beside it, as Node 22's module.enableCompileCache() does for modules: the first run
// compiles the script and, as it exits, writes the bytecode of every function it ran; a later run
// of the same script starts from that bytecode instead of compiling again. A one-string rebuild
// of the scaling site spends about a fifth less time (docs/developers.md, "Compiled programs").
//
// The cache is named by a hash of the script's text, because V8 checks only a script's length
// before it trusts a cache: a cache of another script of the same length would run the wrong
// code. A cache V8 refuses (another Node version or V8 flags) is written again. A cache that
// cannot be written (a read-only install) is left out: the run is only slower.
//
// vm scripts get no source-mapped stack traces from Node: this file maps the script's frames
// through its source map itself, so a stack trace still names the .ts file and line.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire, SourceMap } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import vm from 'node:vm';

/** What Module.wrap puts before the script's first line, which shifts that line's columns. */
const WRAPPER_PREFIX = Module.wrap('\0').indexOf('\0');

/** Runs `file` as Node runs a CommonJS module, from its code cache when there is a valid one. */
export function runWithCodeCache(file) {
  const source = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const cacheFile = `${file}.${hash}.v8-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: this run writes it.
  }
  // The script has no import() (compile.js makes each a require()): Node 20 loses a vm script's
  // import() loader when it runs from a code cache.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => writeCache(script, file, cacheFile));
  mapStackTraces(file);
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}

/** Writes the script's code cache (the functions compiled so far) and deletes the caches of earlier scripts. */
function writeCache(script, file, cacheFile) {
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
    const prefix = `${basename(file)}.`;
    for (const name of readdirSync(dirname(file))) {
      if (name.startsWith(prefix) && name.endsWith('.v8-cache') && name !== basename(cacheFile)) rmSync(join(dirname(file), name), { force: true });
    }
  } catch {
    // A folder we may not write into: the next run compiles again.
  }
}

/** Formats stack traces with the script's frames at their place in the sources (`cli/pipeline/build-site.ts:88:11`). */
function mapStackTraces(file) {
  let map;
  const sourceMap = () => (map ??= new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
  const frame = (site) => {
    if (site.getFileName() !== file) return `    at ${site}`;
    const line = site.getLineNumber();
    const column = site.getColumnNumber() - (line === 1 ? WRAPPER_PREFIX : 0);
    const entry = sourceMap().findEntry(line - 1, column - 1);
    if (!entry?.originalSource) return `    at ${site}`;
    const place = `${resolve(dirname(file), entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const name = site.getFunctionName() ?? site.getMethodName();
    return name ? `    at ${name} (${place})` : `    at ${place}`;
  };
  Error.prepareStackTrace = (error, sites) => [String(error), ...sites.map(frame)].join('\n');
}
