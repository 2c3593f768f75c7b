#!/usr/bin/env node
// Runs the compiled sitegen (build/sitegen/main.js, made by compile.js from cli/main.ts and
// templates/), with source maps on so a stack trace names the .ts file and line; first recompiles
// it if a source changed since the last compile.
import { compiledEntry } from '../compile.js';

// React renders the pages: its production build is several times faster than the development one
// (no per-element dev checks), and the HTML it writes is the same.
process.env.NODE_ENV ??= 'production';
process.setSourceMapsEnabled(true);
await import(await compiledEntry('sitegen'));
