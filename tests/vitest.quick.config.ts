/**
 * `npm run test:quick`: the tests that need no browser, no PostgreSQL and no child process (no
 * `ingest` or `sitegen` process, no nginx, no dev server), for the edit-test loop; `npm test`
 * runs them all. A file is left out when its source starts a process or a server of its own (it
 * imports `node:child_process` or a helper that does) or runs on PostgreSQL only; the suites that
 * run on both backends run their SQLite cases. Found by reading the files, so a new test file is
 * sorted by what it does, with no list to keep up to date.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.ts';

const STARTS_A_PROCESS = /node:child_process|helpers\/(dev-server|replica-set|postgres-cluster)|nginx|chromium|playwright/;

const slow = readdirSync('tests', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => join('tests', file))
  .filter((file) => file.startsWith(join('tests', 'ingest', 'store', 'postgres')) || STARTS_A_PROCESS.test(readFileSync(file, 'utf8')));

// Read by postgres-setup.ts (a globalSetup, run in this process), which then starts no cluster.
process.env.INGEST_TESTS_POSTGRES = 'off';

// One module graph per worker (isolate: false, from vitest.config.ts, as in `npm test`): the files
// share what they import (React, Fastify, kysely, the site's content) instead of loading it 69
// times; 47 s against 74 s on this machine.
export default mergeConfig(base, defineConfig({ test: { exclude: slow } }));
