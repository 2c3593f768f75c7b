// Compiles the two programs ahead of time with esbuild, so that neither runs a TypeScript loader:
//
//   node compile.js [ingest] [sitegen]      (npm run build:ingest, npm run build:sitegen; both
//                                            when none is named, as `npm install` does)
//
// ingest   ingest/main.ts → build/ingest/: one ES module bundle with the service's npm packages
//          inside it, each subcommand in its own chunk (loaded by `import()` when it runs), and
//          only the native better-sqlite3 left outside (the image ships it in node_modules/).
// sitegen  cli/main.ts → build/sitegen/main.js and cli/serve/start.ts (`npm start`) → start.js:
//          cli/ and templates/ bundled, npm packages left outside (sitegen runs where the project
//          is installed, Vite and Tailwind included), but the plain-JavaScript ones every build
//          loads (zod, marked, js-yaml, i18next, commander): one bundled file loads in less than
//          half the time of zod's hundred modules, 30 ms of each sitegen command.
//
// Both keep source maps (`.map` beside each file, no sources inside): bin.js turns them on, so
// a stack trace names the .ts file and line. And `import.meta.url` keeps meaning the source
// module's own location in the bundle: each `new URL('./writer-thread.js', import.meta.url)`,
// `new URL('../content', import.meta.url)` or island entry still names the file beside the .ts
// that wrote it, exactly as when the sources ran through tsx.
//
// bin.js calls `compiledEntry` before it starts a program: it recompiles when an input changed
// since the last compile (a fresh clone, a `git pull`, an edit), and runs what is there when
// the sources are not (the container image ships build/ingest/ without them).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** What each program compiles from, into where, and which packages stay outside its bundle. */
const PROGRAMS = {
  ingest: {
    entries: { main: 'ingest/main.ts' },
    outDir: 'build/ingest',
    // better-sqlite3 is a native addon; pg-native is an optional package pg requires only
    // when `pg.native` is asked for (never here).
    bundle: { external: ['better-sqlite3', 'pg-native'] },
  },
  sitegen: {
    entries: { main: 'cli/main.ts', start: 'cli/serve/start.ts' },
    outDir: 'build/sitegen',
    bundle: {},
    inline: ['zod', 'marked', 'js-yaml', 'i18next', 'commander'],
    // Also one CommonJS script without chunks, which `sitegen build` runs with a V8 code cache
    // (cli/code-cache.js): main.js's modules, compiled and run from scratch at every start, were
    // a fifth of a one-string rebuild.
    script: { main: 'cli/main.ts' },
    // The script also holds the packages that render pages (React's server renderer and the
    // signals the islands read), in their production builds: required from node_modules, Node
    // compiled them from scratch at every start, 20–25 ms of a one-string rebuild. All of them or
    // none: a package left outside that imports React would get a second React.
    scriptInline: ['react', 'react-dom', 'scheduler', '@preact/signals-react', '@preact/signals-core', 'use-sync-external-store'],
  },
};

/** An esbuild plugin that leaves every npm package outside the bundle but those of `inline`. */
function packagesOutside(inline) {
  return {
    name: 'packages-outside',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        if (args.path.startsWith('node:') || !inline.includes(name)) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

/**
 * An esbuild plugin for the bundled js-yaml 3: it requires esprima, a whole JavaScript parser
 * (14 ms of each sitegen build), for its `!!js/function` type, which only its unsafe full schema
 * reads. Front matter is parsed with the safe schema (cli/site/markdown/front-matter.ts), so the
 * bundle leaves esprima out, as js-yaml does itself where esprima is not installed.
 */
function jsYamlWithoutEsprima() {
  const call = "_require('esprima')";
  return {
    name: 'js-yaml-without-esprima',
    setup(build) {
      build.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(call)) throw new Error(`${args.path}: no ${call} to leave out (another js-yaml version?): update compile.js`);
        return { contents: source.replace(call, 'undefined'), loader: 'js' };
      });
    },
  };
}

/** The file listing a compile's inputs, read to tell whether the output is stale. */
const INPUTS_FILE = 'inputs.json';

/**
 * An esbuild plugin that rewrites `import.meta.url` in each project module to that module's
 * own URL, computed from the bundle's at run time.
 *
 * @example in ingest/config.ts, bundled into build/ingest/main.js:
 *   new URL('../content', import.meta.url)
 *   → new URL('../content', new URL("../../ingest/config.ts", import.meta.url).href)
 */
function sourceLocation(outDir) {
  return {
    name: 'source-location',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const fromBundle = relative(outDir, args.path).split(sep).join('/');
        const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
        return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
}

/**
 * An esbuild plugin for zod: its namespace `z` exports `z.locales`, the error messages in every
 * language it ships (about 260 KB of the sitegen bundle, more than half of zod), and a bundler
 * keeps them all because `z` is used as an object. Neither program sets a locale: zod's errors
 * are read in English (the default, which zod installs itself) by the code that turns them into
 * our own translated messages. So `z.locales` keeps English only, and Node parses a bundle of
 * half the size on each start.
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => {
        if (!existsSync(join(dirname(args.path), 'en.js'))) throw new Error(`${args.path}: no en.js beside it (another zod version?): update compile.js`);
        return { contents: 'export { default as en } from "./en.js";', loader: 'js' };
      });
    },
  };
}

/** Compiles one program; resolves to its entry file's path. */
export async function compile(name) {
  const program = PROGRAMS[name];
  if (program === undefined) throw new Error(`compile.js: no program ${JSON.stringify(name)} (ingest, sitegen)`);
  const { build } = await import('esbuild');
  const outDir = join(ROOT, program.outDir);
  const options = {
    absWorkingDir: ROOT,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    minify: true,
    keepNames: true,
    write: false,
    logLevel: 'warning',
    plugins: [sourceLocation(outDir), zodEnglishOnly(), ...(program.inline ? [packagesOutside(program.inline), jsYamlWithoutEsprima()] : [])],
    ...program.bundle,
  };
  const result = await build({
    ...options,
    entryPoints: program.entries,
    splitting: true,
    format: 'esm',
    // The CommonJS packages inside the bundle call require() for Node's own modules.
    banner: { js: "import { createRequire as __compiledRequire } from 'node:module'; const require = __compiledRequire(import.meta.url);" },
  });
  // The script: each module's import.meta.url (rewritten by sourceLocation) is the script's own URL.
  const script = program.script
    ? await build({
        ...options,
        entryPoints: program.script,
        format: 'cjs',
        // import() of a package becomes require(): a vm script has no loader for import() that
        // survives its code cache, and Node 20 require()s ES modules too.
        supported: { 'dynamic-import': false },
        outExtension: { '.js': '.cjs' },
        plugins: [sourceLocation(outDir), zodEnglishOnly(), packagesOutside([...program.inline, ...program.scriptInline]), jsYamlWithoutEsprima()],
        // React's production build, whatever NODE_ENV is (bin.js sets "production" when unset):
        // its development build is left out of the script. The HTML is the same.
        define: { 'import.meta.url': '__scriptUrl', 'process.env.NODE_ENV': '"production"' },
        banner: { js: "var __scriptUrl = require('node:url').pathToFileURL(__filename).href;" },
      })
    : { outputFiles: [] };
  mkdirSync(outDir, { recursive: true });
  // Each file is written beside its place and renamed into it, chunks before the entries and
  // main.js (whose time stamps the compile) last, so a program started meanwhile (another test,
  // another terminal) never reads half a file or a chunk not written yet.
  const entryFile = join(outDir, 'main.js');
  const order = (path) => (path === entryFile ? 2 : Object.keys(program.entries).some((entry) => path === join(outDir, `${entry}.js`)) ? 1 : 0);
  const files = [...script.outputFiles, ...result.outputFiles].sort((a, b) => order(a.path) - order(b.path));
  for (const file of files) writeAtomically(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  writeAtomically(join(outDir, INPUTS_FILE), JSON.stringify([...inputs, 'package-lock.json', 'compile.js']));
  // Chunks are named by their content's hash: earlier compiles' ones (and a crashed compile's
  // temporary files) go once an hour old, not at once, as a program started before this compile
  // (sitegen dev) may still import one.
  const current = new Set([...files.map((file) => file.path), join(outDir, INPUTS_FILE)]);
  const anHourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(outDir)) {
    const path = join(outDir, name);
    if (current.has(path)) continue;
    if ((statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < anHourAgo) rmSync(path, { force: true });
  }
  return entryFile;
}

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** Whether the program's last compile is older than one of its inputs (or missing). */
function isStale(name) {
  const outDir = join(ROOT, PROGRAMS[name].outDir);
  const entryFile = join(outDir, 'main.js');
  if (!existsSync(entryFile)) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(join(outDir, INPUTS_FILE), 'utf8'));
  } catch {
    return true;
  }
  const builtAt = statSync(entryFile).mtimeMs;
  // An input that is gone means no sources here (the container image): run what was compiled.
  return inputs.some((input) => {
    const stat = statSync(join(ROOT, input), { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs > builtAt;
  });
}

/**
 * The compiled entry of `name` (`main`, or another of its entries), recompiled first when the
 * sources changed since (bin.js).
 *
 * @example await import(await compiledEntry('ingest')) // runs build/ingest/main.js
 */
export async function compiledEntry(name, entry = 'main') {
  const entryFile = join(ROOT, PROGRAMS[name].outDir, `${entry}.js`);
  const sourcesHere = existsSync(join(ROOT, PROGRAMS[name].entries.main));
  if (sourcesHere && isStale(name)) {
    try {
      await compile(name);
    } catch (error) {
      // esbuild has printed each problem with its file, line and a code frame; its stack adds nothing.
      if (!Array.isArray(error?.errors)) throw error;
      process.stderr.write(`${name}: the sources above do not compile; fix them and run the command again\n`);
      process.exit(1);
    }
  }
  return entryFile;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(PROGRAMS);
  for (const name of names) {
    const started = performance.now();
    const entryFile = await compile(name);
    process.stderr.write(`compile: ${name} → ${relative(ROOT, entryFile)} in ${Math.round(performance.now() - started)} ms\n`);
  }
}
