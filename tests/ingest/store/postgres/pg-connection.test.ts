/**
 * The pool's connections: each one commits durably (`synchronous_commit = on`) from its first
 * statement, even where the server or the URL makes `off` the session's default, and getting it
 * there does not queue a statement behind another on the same connection (pg deprecates that and
 * pg 9 refuses it).
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../../../../ingest/store/postgres/pg-connection.ts';
import { freshPostgresUrl } from '../../fixtures.ts';

const quiet = { error: () => {}, info: () => {} };
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);

afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe.skipIf(inject('postgresUrl') === null)('the PostgreSQL pool', () => {
  it('gives every new connection synchronous_commit = on before its first statement, without queueing a statement on it', async () => {
    process.on('warning', onWarning);
    // The URL's own startup options make `off` every session's default.
    const url = new URL(await freshPostgresUrl());
    url.searchParams.set('options', `${url.searchParams.get('options') ?? ''} -c synchronous_commit=off`);
    const database = openPostgres({ url: url.toString(), poolMax: 4, log: quiet });
    try {
      // Four statements at once open four connections, each asked for as it opens.
      const settings = await Promise.all(
        Array.from({ length: 4 }, () => database.pool.query<{ synchronous_commit: string; pid: number }>('SELECT current_setting($1) AS synchronous_commit, pg_backend_pid() AS pid', ['synchronous_commit'])),
      );
      expect(new Set(settings.map(({ rows }) => rows[0]!.pid)).size).toBe(4);
      expect(settings.map(({ rows }) => rows[0]!.synchronous_commit)).toEqual(['on', 'on', 'on', 'on']);
      // Node emits warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes('already executing'))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
