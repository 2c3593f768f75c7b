/**
 * The pure parts: captcha tokens, the retry schedule and SMTP failure classes, error mapping,
 * group commit batching.
 */
import { describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS, createChallenge, verifyAnswer } from '../../ingest/http/forms/captcha.ts';
import { errorCodeFor } from '../../ingest/http/errors.ts';
import { GroupCommit, type JobResult } from '../../ingest/store/group-commit.ts';
import { DEFAULT_PASS_BACKOFF, nextRetry, passRetryDelay } from '../../ingest/jobs/retry-schedule.ts';
import { DEFAULT_RETRY_POLICY, isPermanentRejection } from '../../ingest/mail/retry-policy.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret';
const T0 = Date.parse('2025-01-12T00:00:00Z');

describe('captcha', () => {
  const fixed = { digit: () => 4, nonce: () => 'AAAAAAAAAAAAAAAAAAAAAA' };
  const MIN = 3000;
  const nonce = { value: 'AAAAAAAAAAAAAAAAAAAAAA', expiresAt: T0 + CAPTCHA_TTL_MS };

  it('verifies the right answer from the minimum fill time until the expiry and returns the nonce', () => {
    const { a, b, token, minFillMs } = createChallenge(SECRET, T0, MIN, fixed);
    expect(minFillMs).toBe(MIN);
    expect(verifyAnswer(SECRET, token, a + b, T0 + MIN, MIN)).toEqual({ ok: true, nonce });
    expect(verifyAnswer(SECRET, token, a + b, T0 + CAPTCHA_TTL_MS, MIN)).toEqual({ ok: true, nonce });
    expect(verifyAnswer(SECRET, token, a + b, T0 + CAPTCHA_TTL_MS + 1, MIN)).toEqual({ ok: false, reason: 'expired' });
  });

  it('does not reveal the sum in the token', () => {
    // Only the MACs differ between a sum of 8 and a sum of 6.
    const head = (token: string) => token.split('.').slice(0, 3).join('.');
    expect(head(createChallenge(SECRET, T0, MIN, fixed).token)).toBe(head(createChallenge(SECRET, T0, MIN, { ...fixed, digit: () => 3 }).token));
  });

  it('regression: a wrong answer to a genuine token returns its nonce, so the caller can spend it', () => {
    const { token } = createChallenge(SECRET, T0, MIN, fixed);
    expect(verifyAnswer(SECRET, token, 7, T0 + MIN, MIN)).toEqual({ ok: false, reason: 'wrong', nonce });
  });

  it('regression: an answer 200 ms after the challenge was issued is refused as too fast, right or wrong, and spends the nonce', () => {
    const { token } = createChallenge(SECRET, T0, MIN, fixed);
    expect(verifyAnswer(SECRET, token, 8, T0 + 200, MIN)).toEqual({ ok: false, reason: 'too_fast', nonce });
    expect(verifyAnswer(SECRET, token, 7, T0 + MIN - 1, MIN)).toEqual({ ok: false, reason: 'too_fast', nonce });
    // A clock behind the issuer's is "too fast" too, never a negative age that passes.
    expect(verifyAnswer(SECRET, token, 8, T0 - 5000, MIN)).toEqual({ ok: false, reason: 'too_fast', nonce });
    expect(verifyAnswer(SECRET, token, 8, T0, 0)).toEqual({ ok: true, nonce });
  });

  it('refuses other secrets, tampered and malformed tokens without a nonce to spend', () => {
    const { token } = createChallenge(SECRET, T0, MIN, fixed);
    const [v, issued, value, seal, sig] = token.split('.') as [string, string, string, string, string];
    const later = T0 + MIN;
    expect(verifyAnswer('other-secret-other-secret-other-secret', token, 8, later, MIN)).toEqual({ ok: false, reason: 'forged' });
    // An earlier issue time would dodge the minimum fill time; a later one would extend the expiry.
    for (const shifted of [T0 - 60_000, T0 + 60_000]) {
      expect(verifyAnswer(SECRET, `${v}.${shifted.toString(36)}.${value}.${seal}.${sig}`, 8, later + 60_000, MIN)).toEqual({ ok: false, reason: 'forged' });
    }
    expect(verifyAnswer(SECRET, `${v}.${issued}.BBBBBBBBBBBBBBBBBBBBBB.${seal}.${sig}`, 8, later, MIN)).toEqual({ ok: false, reason: 'forged' });
    // A seal swapped for another sum's does not make the wrong answer right.
    const other = createChallenge(SECRET, T0, MIN, { digit: () => 3, nonce: fixed.nonce });
    expect(verifyAnswer(SECRET, `${v}.${issued}.${value}.${other.token.split('.')[3]}.${sig}`, 6, later, MIN)).toEqual({ ok: false, reason: 'forged' });
    for (const bad of ['', 'v1', 'v2.a.b.c', `${token}.x`, 'v2.zz.short.seal.sig', `v1.${issued}.${value}.${sig}`]) {
      expect(verifyAnswer(SECRET, bad, 8, later, MIN)).toEqual({ ok: false, reason: 'malformed' });
    }
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

  it('treats a 5xx answer about the recipient (RCPT TO) or the content (DATA) as final, and everything else as worth retrying', () => {
    for (const command of ['RCPT TO', 'DATA']) expect(isPermanentRejection({ responseCode: 550, command })).toBe(true);
    expect(isPermanentRejection({ responseCode: 554, command: 'DATA', response: '554 5.7.1 Message rejected as spam' })).toBe(true);
    expect(isPermanentRejection({ responseCode: 550, command: 'RCPT TO', response: '550 5.1.1 <address>: Recipient address rejected' })).toBe(true);
    // Try later, a bad password, a refused sender or a server refusing everyone: every row shares those, so they back off.
    expect(isPermanentRejection({ responseCode: 451, command: 'DATA' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 535, command: 'AUTH PLAIN', code: 'EAUTH' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 502, command: 'STARTTLS', code: 'ETLS' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 530, command: 'MAIL FROM' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 550, command: 'MAIL FROM', response: '550 5.4.5 Daily user sending limit exceeded' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 553, command: 'MAIL FROM', response: '553 5.7.1 Sender address rejected: not owned by user' })).toBe(false);
    // The sending quota (Gmail answers it at DATA too) and a full or closed mail system speak of the server, not the message.
    expect(isPermanentRejection({ responseCode: 550, command: 'DATA', response: '550-5.4.5 Daily user sending quota exceeded.\n550 5.4.5 more' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 552, command: 'DATA', response: '552 5.3.1 Mail system full' })).toBe(false);
    expect(isPermanentRejection({ responseCode: 552, command: 'DATA', response: '552 5.3.4 Message too big for system' })).toBe(true);
    expect(isPermanentRejection({ responseCode: 554, command: 'CONN' })).toBe(false);
    expect(isPermanentRejection(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toBe(false);
    expect(isPermanentRejection('550')).toBe(false);
  });

  it('waits 1 s after a failed pass, doubling to 30 s', () => {
    expect([1, 2, 3, 5, 6, 50].map((failures) => passRetryDelay(DEFAULT_PASS_BACKOFF, failures))).toEqual([1_000, 2_000, 4_000, 16_000, 30_000, 30_000]);
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
  // An executor that records its batches and commits when the test says so.
  function executor(failJob?: (job: string) => boolean) {
    const batches: string[][] = [];
    const waiting: Array<() => void> = [];
    const execute = (jobs: string[]) => {
      batches.push(jobs);
      return new Promise<Array<JobResult<string>>>((resolve) => {
        waiting.push(() => resolve(jobs.map((job) => (failJob?.(job) ? { ok: false, error: new Error(job) } : { ok: true, value: `done ${job}` }))));
      });
    };
    const commitAll = () => waiting.splice(0).forEach((commit) => commit());
    return { batches, execute, commitAll };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('puts jobs submitted together into one batch and answers each only after the commit', async () => {
    const { batches, execute, commitAll } = executor();
    const group = new GroupCommit(execute, { maxBatch: 100, maxDelayMs: 0 });
    let answered = false;
    const all = Promise.all(['a', 'b', 'c'].map((job) => group.submit(job))).then((values) => ((answered = true), values));
    await tick();
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(answered).toBe(false);
    commitAll();
    expect(await all).toEqual(['done a', 'done b', 'done c']);
    expect(group.stats).toEqual({ batches: 1, jobs: 3 });
  });

  it('sends what arrives during a commit as the next batch, right after it', async () => {
    const { batches, execute, commitAll } = executor();
    const group = new GroupCommit(execute, { maxBatch: 100, maxDelayMs: 0 });
    const first = group.submit('a');
    await tick();
    const later = ['b', 'c', 'd'].map((job) => group.submit(job));
    await tick();
    expect(batches).toEqual([['a']]);
    commitAll();
    await first;
    await tick();
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
    commitAll();
    expect(await Promise.all(later)).toEqual(['done b', 'done c', 'done d']);
  });

  it('lets the jobs that arrive during a commit wait until the oldest has waited maxDelayMs', async () => {
    const { batches, execute, commitAll } = executor();
    const group = new GroupCommit(execute, { maxBatch: 100, maxDelayMs: 30 });
    const first = group.submit('a');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(batches).toEqual([['a']]);
    const second = group.submit('b');
    commitAll();
    await first;
    await tick();
    expect(batches).toEqual([['a']]);
    const third = group.submit('c');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(batches).toEqual([['a'], ['b', 'c']]);
    commitAll();
    expect(await Promise.all([second, third])).toEqual(['done b', 'done c']);
  });

  it('cuts batches at maxBatch', async () => {
    const { batches, execute, commitAll } = executor();
    const group = new GroupCommit(execute, { maxBatch: 2, maxDelayMs: 0 });
    const all = Promise.all(['a', 'b', 'c', 'd', 'e'].map((job) => group.submit(job)));
    for (let i = 0; i < 5; i++) {
      await tick();
      commitAll();
    }
    await all;
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('fails only the job the executor reports as failed, and every job when the commit fails', async () => {
    const { execute, commitAll } = executor((job) => job === 'bad');
    const group = new GroupCommit(execute, { maxBatch: 100, maxDelayMs: 0 });
    const settled = Promise.allSettled(['a', 'bad', 'b'].map((job) => group.submit(job)));
    await tick();
    commitAll();
    expect((await settled).map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const broken = new GroupCommit<string, string>(() => Promise.reject(new Error('disk I/O error')), { maxBatch: 10, maxDelayMs: 0 });
    const outcomes = await Promise.allSettled([broken.submit('x'), broken.submit('y')]);
    expect(outcomes.every((result) => result.status === 'rejected')).toBe(true);
  });

  it('commits what is queued on close and refuses new jobs after', async () => {
    const { batches, execute, commitAll } = executor();
    const group = new GroupCommit(execute, { maxBatch: 100, maxDelayMs: 10_000 });
    const pending = group.submit('x');
    const closed = group.close();
    await tick();
    commitAll();
    await closed;
    expect(await pending).toBe('done x');
    expect(batches).toEqual([['x']]);
    await expect(group.submit('y')).rejects.toThrow(/closed/);
  });
});
