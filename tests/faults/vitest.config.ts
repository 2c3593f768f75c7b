/**
 * `npm run test:faults`: the fault suite (tests/faults/), three ingest replicas as separate
 * processes on one real PostgreSQL under load from the test, and the concurrency suite
 * (tests/concurrency/), N identical requests at once to two replicas on PostgreSQL and to one
 * process on SQLite. One file at a time (each starts its own clusters, SMTP peers and replicas;
 * in parallel they would fight over two cores).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/faults/**/*.test.ts', 'tests/concurrency/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
