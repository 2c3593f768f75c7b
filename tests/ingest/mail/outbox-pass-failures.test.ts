/**
 * A pass over the outbox that fails because the database cannot be written (a full disk, a
 * read-only file): the worker waits, with backoff, before the next pass, and delivers once the
 * database can be written again. Real SQLite files, a real SMTP peer, a real small filesystem.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { smtpPeer } from '../../helpers/smtp-peer.ts';
import { eventually, migratedDb, SITE_CONTENT, tempDir } from '../fixtures.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  // Every cleanup runs (the tmpfs must be unmounted even when a test failed); the first error is rethrown.
  const errors: unknown[] = [];
  while (cleanups.length > 0) await Promise.resolve().then(cleanups.pop()!).catch((error: unknown) => void errors.push(error));
  if (errors.length > 0) throw errors[0];
});

/** Mounts a 4 MiB tmpfs on a fresh folder (root only); returns why not otherwise. */
function smallDisk(): { dir: string } | { reason: string } {
  const temp = tempDir();
  cleanups.push(temp.remove);
  if (process.getuid?.() !== 0) return { reason: 'mounting a small tmpfs to fill needs root' };
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', temp.dir], { stdio: 'pipe' });
  } catch (error) {
    return { reason: `cannot mount a tmpfs here: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` };
  }
  cleanups.push(() => void execFileSync('umount', ['-l', temp.dir]));
  return { dir: temp.dir };
}

/** Writes a file until the filesystem has no block left; returns the file's path. */
function fillDisk(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** A migrated database in `dir` holding one contact whose sales email is due now. */
async function oneQueuedContact(dir: string): Promise<SqliteDatabase> {
  const db = await migratedDb(dir);
  const store = await openSubmissionStore(db, {});
  const fields = { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.com', phone: null, companyName: null, country: 'es', message: 'Hola', captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
  await store.submitContact(fields, { value: 'nonce-disk-00000001', expiresAt: Date.now() + 60_000 }, Date.now());
  await store.close();
  cleanups.push(() => db.close());
  return db;
}

/** Starts a worker on `db` that sends to a real peer; failed passes are collected from its log. */
async function startedWorker(db: SqliteDatabase) {
  const smtp = await smtpPeer();
  cleanups.push(smtp.close);
  const failedPasses: string[] = [];
  const worker = outboxWorker({
    outbox: sqliteOutbox(db),
    mailer: smtpMailer(`${smtp.url}?ignoreTLS=true`),
    envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
    clock: { now: () => Date.now() },
    pollMs: 20,
    passBackoff: { firstDelayMs: 50, maxDelayMs: 200 },
    log: {
      info: () => {},
      warn: () => {},
      error: (_data: unknown, message?: string) => {
        if (message === 'outbox pass failed') failedPasses.push(message);
      },
    },
  });
  worker.start();
  cleanups.push(() => worker.stop());
  return { smtp, failedPasses };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an outbox pass that fails', () => {
  it('regression: with the disk full, the worker backs off between failed passes instead of retrying ~780 times a second', async ({ skip }) => {
    const disk = smallDisk();
    if ('reason' in disk) return skip(`skipped: ${disk.reason}`);
    const db = await oneQueuedContact(disk.dir);
    // An empty WAL, so that claiming the row needs new blocks on the full disk.
    db.raw.pragma('wal_checkpoint(TRUNCATE)');
    const filler = fillDisk(disk.dir);

    const { smtp, failedPasses } = await startedWorker(db);
    // Backoff 50, 100, 200, 200 ms: about five passes in 600 ms (the old loop made hundreds).
    await settle(600);
    expect(failedPasses.length).toBeGreaterThanOrEqual(1);
    expect(failedPasses.length).toBeLessThanOrEqual(8);
    expect(smtp.received).toHaveLength(0);

    rmSync(filler);
    await eventually(async () => (await sqliteOutbox(db).counts()).sent === 1);
    expect(smtp.messages).toHaveLength(1);
    expect(await sqliteOutbox(db).counts()).toMatchObject({ pending: 0, sending: 0 });
  });

  it('regression: with the database file read-only, the worker backs off between failed passes instead of spinning', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const db = await oneQueuedContact(temp.dir);
    // Every write on this connection now fails with SQLITE_READONLY, as on a read-only file.
    db.raw.pragma('query_only = ON');

    const { smtp, failedPasses } = await startedWorker(db);
    await settle(600);
    expect(failedPasses.length).toBeGreaterThanOrEqual(1);
    expect(failedPasses.length).toBeLessThanOrEqual(8);
    expect(smtp.received).toHaveLength(0);

    db.raw.pragma('query_only = OFF');
    await eventually(async () => (await sqliteOutbox(db).counts()).sent === 1);
    expect(smtp.messages).toHaveLength(1);
    expect(await sqliteOutbox(db).counts()).toMatchObject({ pending: 0, sending: 0 });
  });
});
