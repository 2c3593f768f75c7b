import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // tests/faults/ and tests/concurrency/ have their own config and command (`npm run test:faults`).
    exclude: ['tests/e2e/**', 'tests/faults/**', 'tests/concurrency/**', 'node_modules/**'],
    environment: 'node',
    // One throw-away PostgreSQL cluster for the ingest suites that run on both backends, and a
    // folder where the first test file that needs the real site builds it for the whole run.
    globalSetup: ['tests/ingest/postgres-setup.ts', 'tests/helpers/shared-build-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
