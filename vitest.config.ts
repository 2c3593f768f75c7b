import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // tests/faults/ and tests/concurrency/ have their own config and command (`npm run test:faults`).
    exclude: ['tests/e2e/**', 'tests/faults/**', 'tests/concurrency/**', 'node_modules/**'],
    environment: 'node',
    // One throw-away PostgreSQL cluster for the ingest suites that run on both backends, started
    // when a test first connects to it, and a folder where the first test file that needs the
    // real site builds it for the whole run.
    globalSetup: ['tests/ingest/postgres-setup.ts', 'tests/helpers/shared-build-setup.ts'],
    pool: 'forks',
    // One module graph per worker instead of one per file: the files a worker runs share what they
    // import (React, Fastify, kysely, zod, the site's content) instead of transforming and loading
    // it again in a fresh process each. The whole run, back to back on the shared 2-core machine
    // (load 11-18): 393 s of CPU and 339 s of summed import time isolated, 274 s and 53 s so, the
    // same 2,456 tests. No test file mutates process.env, changes directory or mocks a module;
    // the one with fake timers and the one with a process listener undo them after each test.
    isolate: false,
    // One file more than there are cores: vitest's default, one worker per core but one, runs the
    // files one after another on a 2-core machine, while most of the slow files wait on a child
    // process, a server or a socket rather than on the CPU. On this 2-core machine, quiet, the whole
    // run took 157 s with two workers, 133 s with three and 124 s with four, at the same CPU time
    // (197-201 s); three keeps the timing-sensitive files further from a starved CPU.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    testTimeout: 30_000,
    // A file's set-up may wait for the run's shared site build (tests/helpers/built-site.ts waits up
    // to 180 s for the file that makes it): on a loaded machine 60 s failed such hooks before the
    // build they waited for was done (nginx-forwarding.test.ts, CI at load 15-30).
    hookTimeout: 240_000,
  },
});
