#!/usr/bin/env node
// Runs the compiled sitegen (build/sitegen/main.js, made by compile.js from cli/main.ts and
// templates/), with source maps on so a stack trace names the .ts file and line; first recompiles
// it if a source changed since the last compile. `sitegen build`, the command run again and again
// while content is edited, runs the same program compiled as one script, main.cjs, with a V8
// code cache (code-cache.js): it starts without compiling its code again.
import { compiledEntry } from '../compile.js';
import { runWithCodeCache } from './code-cache.js';

// React renders the pages: its production build is several times faster than the development one
// (no per-element dev checks), and the HTML it writes is the same.
process.env.NODE_ENV ??= 'production';
process.setSourceMapsEnabled(true);
const entry = await compiledEntry('sitegen');
if (process.argv[2] === 'build') runWithCodeCache(entry.replace(/\.js$/, '.cjs'));
else await import(entry);
