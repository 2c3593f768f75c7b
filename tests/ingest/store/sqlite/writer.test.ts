/**
 * The SQLite writer on a real file, on the main thread (the service's) and in the bench's worker
 * thread (`tests/bench/ingest/worker-writer.ts`) alike: one
 * transaction per batch, one savepoint per job, durable (visible to another connection) before
 * `execute` resolves.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteWriter, startSqliteWriter } from '../../../../ingest/store/sqlite/writer.ts';
import { workerWriter } from '../../../bench/ingest/worker-writer.ts';
import { tempDir } from '../../fixtures.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The two places a writer can run, each started on `path` with `statements`. */
const THREADS = { worker: workerWriter, main: startSqliteWriter } satisfies Record<string, (path: string, statements: string[]) => SqliteWriter>;

describe.each(['worker', 'main'] as const)('sqlite writer (%s thread)', (thread) => {
  const start = THREADS[thread];
  function setup(): { writer: SqliteWriter; reader: Database.Database } {
    const temp = tempDir();
    const path = `${temp.dir}/w.sqlite`;
    const reader = new Database(path);
    reader.exec('CREATE TABLE t (v TEXT UNIQUE NOT NULL)');
    const writer = start(path, ['INSERT INTO t (v) VALUES (?) ON CONFLICT DO NOTHING RETURNING v', 'INSERT INTO t (v) VALUES (?)']);
    cleanups.push(temp.remove, () => reader.close(), () => writer.close());
    return { writer, reader };
  }

  const rows = (db: Database.Database) => (db.prepare('SELECT v FROM t ORDER BY v').all() as Array<{ v: string }>).map((r) => r.v);

  it('commits a batch before resolving, so another connection sees every row', async () => {
    const { writer, reader } = setup();
    await writer.ready;
    const outcomes = await writer.execute([[[1, ['a'], false]], [[1, ['b'], false]]]);
    expect(outcomes).toEqual([null, null]);
    expect(rows(reader)).toEqual(['a', 'b']);
  });

  it('fails a one-statement job alone, and keeps the rest of the batch', async () => {
    const { writer, reader } = setup();
    await writer.execute([[[1, ['taken'], false]]]);
    const outcomes = await writer.execute([[[1, ['p'], false]], [[1, ['taken'], false]], [[1, ['q'], false]]]);
    expect(outcomes).toEqual([null, expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }), null]);
    expect(rows(reader)).toEqual(['p', 'q', 'taken']);
  });

  it('rolls back only the failing job, all of its steps, and keeps the rest of the batch', async () => {
    const { writer, reader } = setup();
    await writer.execute([[[1, ['taken'], false]]]);
    const outcomes = await writer.execute([
      [[1, ['x'], false]],
      [[1, ['half'], false], [1, ['taken'], false]],
      [[1, ['y'], false]],
    ]);
    expect(outcomes[0]).toBeNull();
    expect(outcomes[1]).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(outcomes[2]).toBeNull();
    expect(rows(reader)).toEqual(['taken', 'x', 'y']);
  });

  it('ends a job at a step that finds no row, without running the later steps', async () => {
    const { writer, reader } = setup();
    await writer.execute([[[1, ['dup'], false]]]);
    const outcomes = await writer.execute([[[0, ['dup'], true], [1, ['never'], false]], [[0, ['fresh'], true], [1, ['after-fresh'], false]]]);
    expect(outcomes).toEqual([0, null]);
    expect(rows(reader)).toEqual(['after-fresh', 'dup', 'fresh']);
  });

  it('reports a file it cannot open through ready and execute', async () => {
    const writer = start('/nonexistent-dir/x/y.sqlite', ['SELECT 1']);
    await expect(writer.ready).rejects.toThrow();
    expect(writer.alive).toBe(false);
    await expect(writer.execute([])).rejects.toThrow(/closed/);
  });
});
