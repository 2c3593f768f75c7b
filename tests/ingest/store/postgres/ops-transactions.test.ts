/**
 * A transaction of the consent lifecycle or an operator command that PostgreSQL rolls back for a
 * deadlock runs again instead of failing: `ingest erase` died with "deadlock detected" (40P01) and
 * a stack trace while a signup held the same rows in the other order.
 */
import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { openPostgres } from '../../../../ingest/store/postgres/pg-connection.ts';
import { postgresOps } from '../../../../ingest/store/postgres/pg-ops-database.ts';
import { stderrStorageLog } from '../../../../ingest/store/storage-log.ts';
import { freshPostgresUrl } from '../../fixtures.ts';

describe.skipIf(inject('postgresUrl') === null)('operator and lifecycle transactions on PostgreSQL', () => {
  it('regression: two transactions that lock two rows in opposite orders both finish, the one PostgreSQL chose to fail run again', async () => {
    const db = openPostgres({ url: await freshPostgresUrl(), poolMax: 4, log: stderrStorageLog });
    const ops = postgresOps(db);
    try {
      await sql`CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL)`.execute(db.kysely);
      await sql`INSERT INTO pair VALUES (1, 0), (2, 0)`.execute(db.kysely);
      // Each transaction locks its first row, waits until the other has locked its own, then asks for the other's.
      let locked = 0;
      const bothLocked = () =>
        new Promise<void>((resolve) => {
          const poll = () => (locked >= 2 ? resolve() : setTimeout(poll, 5));
          poll();
        });
      let runs = 0;
      const lockInOrder = (first: number, second: number) =>
        ops.transaction(async (tx) => {
          runs += 1;
          await tx.run(db.kysely.updateTable('pair' as never).set({ n: sql`n + 1` } as never).where('id' as never, '=', first as never));
          locked += 1;
          await bothLocked();
          await tx.run(db.kysely.updateTable('pair' as never).set({ n: sql`n + 1` } as never).where('id' as never, '=', second as never));
          return first;
        });
      const outcomes = await Promise.allSettled([lockInOrder(1, 2), lockInOrder(2, 1)]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
      // One deadlock, so one transaction ran twice; each row counted by both committed transactions.
      expect(runs).toBe(3);
      const { rows } = await sql<{ n: number }>`SELECT n FROM pair ORDER BY id`.execute(db.kysely);
      expect(rows.map((row) => row.n)).toEqual([2, 2]);
    } finally {
      await ops.close();
    }
  });
});
