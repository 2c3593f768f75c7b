/**
 * vitest globalSetup: starts one throw-away PostgreSQL cluster for the whole run, so every
 * ingest suite that goes through the store interfaces runs against SQLite and PostgreSQL. Each
 * test then works in a schema of its own (`freshPostgresUrl` in fixtures.ts).
 *
 * `npm run test:quick` sets INGEST_TESTS_POSTGRES=off: no cluster, the SQLite cases only.
 * Without PostgreSQL installed: in CI (`CI` set) the run fails with the one-line install hint;
 * on a developer's machine the PostgreSQL cases are left out after printing that same line.
 */
import type { TestProject } from 'vitest/node';
import { INSTALL_HINT, postgresBin, startPostgresCluster } from '../helpers/postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's URL, or null when PostgreSQL is not installed here. */
    postgresUrl: string | null;
  }
}

/** Starts the cluster and provides its URL; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => void> {
  // `npm run test:quick` runs without PostgreSQL (tests/vitest.quick.config.ts).
  if (process.env.INGEST_TESTS_POSTGRES === 'off') {
    project.provide('postgresUrl', null);
    return () => {};
  }
  if (postgresBin() === null) {
    if (process.env.CI) throw new Error(INSTALL_HINT);
    process.stderr.write(`ingest tests: ${INSTALL_HINT}; running on SQLite only.\n`);
    project.provide('postgresUrl', null);
    return () => {};
  }
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
