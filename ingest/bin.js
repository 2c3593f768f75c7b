#!/usr/bin/env node
// Runs the compiled service (build/ingest/main.js, made by compile.js from ingest/main.ts), with
// source maps on so a stack trace names the .ts file and line. Where the sources are present it
// first recompiles them if they changed since the last compile; in the container image, which
// ships build/ingest/ without the sources, it runs what is there.
import { compiledEntry } from '../compile.js';

process.setSourceMapsEnabled(true);
await import(await compiledEntry('ingest'));
