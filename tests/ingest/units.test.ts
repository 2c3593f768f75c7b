/**
 * The pure parts: captcha tokens, the retry schedule, error mapping, group commit batching.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS, createChallenge, verifyAnswer } from '../../ingest/captcha.ts';
import { errorCodeFor } from '../../ingest/http-errors.ts';
import { GroupCommit } from '../../ingest/group-commit.ts';
import { DEFAULT_RETRY_POLICY, nextRetry } from '../../ingest/retry-policy.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret';
const T0 = Date.parse('2025-01-12T00:00:00Z');

describe('captcha', () => {
  const fixed = { digit: () => 4, nonce: () => 'AAAAAAAAAAAAAAAAAAAAAA' };

  it('verifies the right answer until the expiry and returns the nonce', () => {
    const { a, b, token } = createChallenge(SECRET, T0, fixed);
    expect(verifyAnswer(SECRET, token, a + b, T0 + CAPTCHA_TTL_MS)).toEqual({ ok: true, nonce: 'AAAAAAAAAAAAAAAAAAAAAA', expiresAt: T0 + CAPTCHA_TTL_MS });
    expect(verifyAnswer(SECRET, token, a + b, T0 + CAPTCHA_TTL_MS + 1)).toEqual({ ok: false, reason: 'expired' });
  });

  it('does not reveal the sum in the token', () => {
    const { token } = createChallenge(SECRET, T0, fixed);
    expect(token.split('.').slice(0, 3).join('.')).not.toContain('8');
  });

  it('refuses wrong answers, other secrets, tampered and malformed tokens', () => {
    const { token } = createChallenge(SECRET, T0, fixed);
    const [v, expiry, nonce, mac] = token.split('.') as [string, string, string, string];
    expect(verifyAnswer(SECRET, token, 7, T0).ok).toBe(false);
    expect(verifyAnswer('other-secret-other-secret-other-secret', token, 8, T0).ok).toBe(false);
    expect(verifyAnswer(SECRET, `${v}.${(Number.parseInt(expiry, 36) + 1).toString(36)}.${nonce}.${mac}`, 8, T0).ok).toBe(false);
    expect(verifyAnswer(SECRET, `${v}.${expiry}.BBBBBBBBBBBBBBBBBBBBBB.${mac}`, 8, T0).ok).toBe(false);
    for (const bad of ['', 'v1', 'v2.a.b.c', `${token}.x`, 'v1.zz.short.mac']) expect(verifyAnswer(SECRET, bad, 8, T0)).toMatchObject({ ok: false });
  });
});

describe('retry policy', () => {
  const at = (attempts: number, now = T0, random = 0.5) => nextRetry(DEFAULT_RETRY_POLICY, { attempts, queuedAt: T0, now, random });

  it('starts at 10 s, doubles, and stays at 1 h', () => {
    expect([1, 2, 3, 4, 9, 10, 20, 500].map((n) => (at(n) as { at: number }).at - T0)).toEqual([
      10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('jitters by ±20 %', () => {
    expect((at(1, T0, 0) as { at: number }).at - T0).toBe(8_000);
    expect((at(1, T0, 1) as { at: number }).at - T0).toBe(12_000);
  });

  it('tries once more at the 48 h mark, then gives up', () => {
    const deadline = T0 + 48 * 3600_000;
    expect(at(30, deadline - 1000)).toEqual({ action: 'retry', at: deadline });
    expect(at(31, deadline)).toEqual({ action: 'give_up' });
  });
});

describe('errorCodeFor', () => {
  it('maps Fastify, rate-limit and database errors to catalogue codes', () => {
    expect(errorCodeFor({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })).toBe('unsupported_media_type');
    expect(errorCodeFor({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).toBe('payload_too_large');
    expect(errorCodeFor({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })).toBe('malformed_json');
    expect(errorCodeFor({ statusCode: 429 })).toBe('rate_limited');
    expect(errorCodeFor({ code: 'FST_ERR_BAD_URL', statusCode: 400 })).toBe('bad_request');
    expect(errorCodeFor({ code: 'SQLITE_BUSY' })).toBe('unavailable');
    expect(errorCodeFor({ code: 'SQLITE_IOERR_FSYNC' })).toBe('unavailable');
    expect(errorCodeFor(new TypeError('x'))).toBe('internal');
  });
});

describe('group commit', () => {
  function table() {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT UNIQUE)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const transactor = {
      commits: 0,
      transaction<T>(fn: () => T): T {
        if (!db.inTransaction) transactor.commits += 1;
        return db.transaction(fn)();
      },
    };
    return { db, insert, transactor, rows: () => (db.prepare('SELECT v FROM t ORDER BY v').all() as Array<{ v: string }>).map((r) => r.v) };
  }

  it('commits concurrent jobs in one transaction and answers each after the commit', async () => {
    const { insert, transactor, rows } = table();
    const group = new GroupCommit(transactor, { maxBatch: 100, maxDelayMs: 2 });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => group.submit(() => insert.run(v).changes)));
    expect(results).toEqual([1, 1, 1, 1]);
    expect(transactor.commits).toBe(1);
    expect(group.stats).toEqual({ batches: 1, jobs: 4 });
    expect(rows()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('fails only the job that throws; its savepoint rolls back and the rest commit', async () => {
    const { insert, transactor, rows } = table();
    const group = new GroupCommit(transactor, { maxBatch: 100, maxDelayMs: 2 });
    const outcomes = await Promise.allSettled([
      group.submit(() => insert.run('a')),
      group.submit(() => {
        insert.run('half-done');
        insert.run('a'); // unique violation
      }),
      group.submit(() => insert.run('b')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('cuts a batch at maxBatch and fails the whole batch when the commit fails', async () => {
    const { insert, transactor, rows } = table();
    const group = new GroupCommit(transactor, { maxBatch: 2, maxDelayMs: 50 });
    await Promise.all(['a', 'b', 'c'].map((v) => group.submit(() => insert.run(v))));
    expect(group.stats.batches).toBe(2);
    const failing = new GroupCommit({ transaction: () => { throw new Error('disk I/O error'); } }, { maxBatch: 10, maxDelayMs: 0 });
    const settled = await Promise.allSettled([failing.submit(() => 1), failing.submit(() => 2)]);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('commits what is queued on close and refuses new jobs after', async () => {
    const { insert, transactor, rows } = table();
    const group = new GroupCommit(transactor, { maxBatch: 100, maxDelayMs: 1000 });
    const pending = group.submit(() => insert.run('x'));
    group.close();
    await pending;
    expect(rows()).toEqual(['x']);
    await expect(group.submit(() => 1)).rejects.toThrow(/closed/);
  });
});
