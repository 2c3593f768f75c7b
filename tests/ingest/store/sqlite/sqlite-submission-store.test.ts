/**
 * The SQLite submission store on a real file: a used captcha nonce is deleted soon after its
 * question expires even when no later request comes to delete it (the privacy policy keeps the
 * identifier "until the question expires").
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSubmissionStore } from '../../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { eventually, migratedDb, rowsInFile, tempDir } from '../../fixtures.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const nonces = (path: string) => rowsInFile<{ nonce: string }>(path, 'SELECT nonce FROM captcha_nonces').map((row) => row.nonce);

describe('the SQLite submission store', () => {
  it('regression: deletes a used captcha nonce once its question has expired, without waiting for the next request or the daily clean-up', async () => {
    const temp = tempDir();
    const db = await migratedDb(temp.dir);
    cleanups.push(temp.remove, () => db.close());
    const store = await openSubmissionStore(db, { nonceSweepMs: 25 });
    cleanups.push(() => store.close());
    const path = join(temp.dir, 'ingest.sqlite');

    const now = Date.now();
    await store.spendNonce({ value: 'nonce-short-lived-0000001', expiresAt: now + 300 }, now);
    await store.spendNonce({ value: 'nonce-still-valid-0000002', expiresAt: now + 600_000 }, now);
    expect(nonces(path).sort()).toEqual(['nonce-short-lived-0000001', 'nonce-still-valid-0000002']);

    // Before its expiry it stays: it is what refuses the same answer twice.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(nonces(path)).toContain('nonce-short-lived-0000001');
    await eventually(() => !nonces(path).includes('nonce-short-lived-0000001'), 3000);
    expect(nonces(path)).toEqual(['nonce-still-valid-0000002']);
  });
});
