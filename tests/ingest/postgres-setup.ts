/**
 * vitest globalSetup: one throw-away PostgreSQL cluster for the whole run, so every ingest suite
 * that goes through the store interfaces runs against SQLite and PostgreSQL. Each test then works
 * in a schema of its own (`freshPostgresUrl` in fixtures.ts).
 *
 * The cluster starts only when a test first connects to it: the URL the run is given is a
 * loopback port of this process, which starts the cluster on the first connection and then joins
 * each connection to it byte for byte. A run of files that never touch PostgreSQL
 * (`npx vitest run tests/docs`) starts none, and no test file needs to know which file comes first.
 *
 * `npm run test:quick` sets INGEST_TESTS_POSTGRES=off: no cluster, the SQLite cases only.
 * Without PostgreSQL installed: in CI (`CI` set) the run fails with the one-line install hint;
 * on a developer's machine the PostgreSQL cases are left out after printing that same line.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { INSTALL_HINT, type PostgresCluster, postgresBin, startPostgresCluster } from '../helpers/postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's URL, or null when PostgreSQL is not installed here. */
    postgresUrl: string | null;
  }
}

/** Provides the cluster's URL, the cluster started by the first connection to it; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // `npm run test:quick` runs without PostgreSQL (tests/vitest.quick.config.ts).
  if (process.env.INGEST_TESTS_POSTGRES === 'off') {
    project.provide('postgresUrl', null);
    return async () => {};
  }
  if (postgresBin() === null) {
    if (process.env.CI) throw new Error(INSTALL_HINT);
    process.stderr.write(`ingest tests: ${INSTALL_HINT}; running on SQLite only.\n`);
    project.provide('postgresUrl', null);
    return async () => {};
  }
  let cluster: Promise<PostgresCluster> | undefined;
  const sockets = new Set<Socket>();
  const gate = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    cluster ??= startPostgresCluster();
    cluster.then(
      ({ port }) => {
        if (client.destroyed) return;
        const server = connect(port, '127.0.0.1');
        sockets.add(server);
        server.once('close', () => {
          sockets.delete(server);
          client.destroy();
        });
        server.on('error', () => server.destroy());
        client.once('close', () => server.destroy());
        client.pipe(server).pipe(client);
      },
      (error: unknown) => {
        process.stderr.write(`ingest tests: the PostgreSQL cluster did not start: ${String(error)}\n`);
        client.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  project.provide('postgresUrl', `postgres://app@127.0.0.1:${(gate.address() as AddressInfo).port}/postgres`);
  return async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => gate.close(resolve));
    if (cluster !== undefined) (await cluster.catch(() => undefined))?.stop();
  };
}
