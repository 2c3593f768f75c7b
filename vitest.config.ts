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
    // At least two files at a time: vitest's default, one worker per core but one, runs the files
    // one after another on a 2-core machine, while most of the slow files wait on a child process,
    // a server or a socket rather than on the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
