/**
 * The service under storage failures, on real SQLite files: the database file removed or replaced
 * while it runs, a full disk (a small tmpfs, so these tests need root), and a WAL checkpoint that
 * cannot write. A write is never acknowledged unless it is in the file the next start opens, and
 * `/readyz` says not ready while the storage fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../ingest/http/app.ts';
import { openSqlite } from '../../../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { eventually, migratedDb, NO_CEILINGS, postJson, rowsInFile, SECRET, signup, tempDir, testNewsletter } from '../../fixtures.ts';
import { sqliteOps } from '../../../../ingest/store/sqlite/sqlite-ops-database.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const isRoot = process.getuid?.() === 0;
const rootOnly = isRoot ? it : it.skip;
if (!isRoot) console.warn('storage-failures: skipping the full-disk tests: mounting a small tmpfs needs root');

/** The app on a migrated database in `dir`, with the store's storage log captured. */
async function serviceIn(dir: string): Promise<{ app: FastifyInstance; logs: string[] }> {
  const db = await migratedDb(dir);
  const logs: string[] = [];
  const log = (level: string) => (details: object, message: string) => void logs.push(`${level} ${message} ${JSON.stringify(details)}`);
  const store = await openSubmissionStore(db, { maintenanceMs: 20, log: { error: log('error'), info: log('info') } });
  const app = await buildApp({ store, consent: testNewsletter(sqliteOps(db)), captchaSecret: SECRET, rateLimit: { max: 10_000, windowMs: 60_000, newsletterDailyMax: 1_000_000, hourlyCeilings: NO_CEILINGS }, logger: false });
  await app.ready();
  cleanups.push(() => db.close(), () => store.close(), () => app.close());
  return { app, logs };
}

/** A small tmpfs mounted on a fresh folder, unmounted afterwards. */
function smallDisk(size: string): string {
  const temp = tempDir();
  const dir = join(temp.dir, 'disk');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  cleanups.push(temp.remove, () => execFileSync('umount', ['-l', dir]));
  return dir;
}

/** Fills the rest of the file system holding `dir` with one file, and returns that file. */
function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  try {
    writeFileSync(filler, Buffer.alloc(64 << 20));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

const readyz = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;

const signupRows = (path: string) => rowsInFile<{ email: string }>(path, 'SELECT email FROM newsletter ORDER BY id').map((row) => row.email);

describe('storage failures', () => {
  it('regression: deleting the database file while running answers 503 and /readyz is not ready', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const { app, logs } = await serviceIn(temp.dir);
    const path = join(temp.dir, 'ingest.sqlite');
    expect((await postJson(app, '/api/newsletter', signup({ email: 'before@example.com' }))).statusCode).toBe(201);

    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file);
    const after = await Promise.all(Array.from({ length: 21 }, (_, i) => postJson(app, '/api/newsletter', signup({ email: `lost${i}@example.com` }))));

    expect(after.map((res) => res.statusCode)).toEqual(Array(21).fill(503));
    expect(after[0]!.json()).toMatchObject({ error: { code: 'unavailable' } });
    expect(after[0]!.headers['retry-after']).toBe('5');
    expect(await readyz(app)).toBe(503);
    expect(logs.join('\n')).toMatch(/error .*ingest\.sqlite was removed while the service ran/);
  });

  it('regression: replacing the database file while running answers 503, and no row is acknowledged into the old file', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const { app } = await serviceIn(temp.dir);
    const path = join(temp.dir, 'ingest.sqlite');
    expect((await postJson(app, '/api/newsletter', signup({ email: 'kept@example.com' }))).statusCode).toBe(201);

    // A restore done the wrong way: another database moved into place while the service runs.
    const other = await migratedDb(temp.dir, 'restored.sqlite');
    other.close();
    for (const file of [`${path}-wal`, `${path}-shm`]) rmSync(file);
    renameSync(join(temp.dir, 'restored.sqlite'), path);
    const res = await postJson(app, '/api/newsletter', signup({ email: 'into-old-file@example.com' }));

    expect(res.statusCode).toBe(503);
    expect(await readyz(app)).toBe(503);
    expect(signupRows(path)).not.toContain('into-old-file@example.com');
  });

  rootOnly('regression: a full disk answers 503 and /readyz is not ready until a write succeeds again', async () => {
    const disk = smallDisk('1m');
    const { app, logs } = await serviceIn(disk);
    expect((await postJson(app, '/api/newsletter', signup({ email: 'first@example.com' }))).statusCode).toBe(201);
    // The next commit must grow the WAL. The writer thread's own checkpoint may hold the WAL at
    // that moment (then TRUNCATE reports busy and leaves the file as it was), so try until it is empty.
    const main = openSqlite(join(disk, 'ingest.sqlite'));
    await eventually(() => {
      const [result] = main.raw.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      return result!.busy === 0 && statSync(join(disk, 'ingest.sqlite-wal')).size === 0;
    });
    main.close();
    const filler = fillDisk(disk);

    const full = await postJson(app, '/api/newsletter', signup({ email: 'disk-full@example.com' }));
    expect(full.statusCode).toBe(503);
    expect(full.json()).toMatchObject({ error: { code: 'unavailable' } });
    expect(await readyz(app)).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 100)); // several maintenance rounds: still full, still not ready
    expect(await readyz(app)).toBe(503);
    expect(logs.join('\n')).toMatch(/error .*SQLITE_FULL/);

    rmSync(filler);
    // No request comes (a load balancer has stopped sending them): the writer's probe finds out.
    await eventually(() => logs.some((line) => line.startsWith('info database storage recovered')));
    expect(await readyz(app)).toBe(200);
    expect((await postJson(app, '/api/newsletter', signup({ email: 'after@example.com' }))).statusCode).toBe(201);
  });

  rootOnly('regression: a failing WAL checkpoint is logged and /readyz is not ready', async () => {
    // Room for the WAL of the 150 signups below, however many commits they take (the writer on the
    // main thread makes smaller batches here than a worker did, and so a longer WAL).
    const disk = smallDisk('2m');
    const path = join(disk, 'ingest.sqlite');
    const { app, logs } = await serviceIn(disk);
    // A reader's snapshot keeps the checkpoints from copying the new pages while the disk fills.
    const reader = new Database(path, { readonly: true });
    cleanups.push(() => reader.close());
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM newsletter').get();
    const posts = await Promise.all(
      Array.from({ length: 150 }, (_, i) => postJson(app, '/api/newsletter', signup({ name: `Subscriber ${i} ${'x'.repeat(80)}`, email: `s${i}@example.com` }))),
    );
    expect(posts.every((res) => res.statusCode === 201)).toBe(true);
    const filler = fillDisk(disk);
    reader.prepare('COMMIT').run(); // now the checkpoint must grow the database file, on a full disk

    await eventually(() => logs.some((line) => /error .*WAL checkpoint failed: SQLITE_FULL/.test(line)));
    expect(await readyz(app)).toBe(503);

    rmSync(filler);
    await eventually(() => logs.some((line) => line.includes('recovered') && line.includes('checkpoint')));
    expect(await readyz(app)).toBe(200);
    expect(signupRows(path)).toHaveLength(150);
  });
});
