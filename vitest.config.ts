import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // tests/faults/ has its own config and command (`npm run test:faults`).
    exclude: ['tests/e2e/**', 'tests/faults/**', 'node_modules/**'],
    environment: 'node',
    // One throw-away PostgreSQL cluster for the ingest suites that run on both backends.
    globalSetup: ['tests/ingest/postgres-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
