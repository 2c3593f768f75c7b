#!/usr/bin/env node
// `npm start`: runs the compiled cli/serve/start.ts (build/sitegen/start.js, made by compile.js),
// with source maps on so a stack trace names the .ts file and line; first recompiles it if a
// source changed since the last compile.
import { compiledEntry } from '../compile.js';

process.setSourceMapsEnabled(true);
await import(await compiledEntry('sitegen', 'start'));
