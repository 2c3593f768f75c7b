/**
 * The rate-limit counters of a SQLite service: per-minute windows in memory, daily ones in
 * `rate-limits.sqlite`, where no crowd of other clients can evict them and a restart keeps them.
 * Daily counts are kept in memory and written to the file together within `FLUSH_MS`.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMIT_FILE } from '../../../../ingest/store/sqlite/sqlite-backend.ts';
import { FLUSH_MS, sqliteRateLimitCounters } from '../../../../ingest/store/sqlite/sqlite-rate-limit-store.ts';
import { type BackendTestApp, contact, tempDir, testAppOn } from '../../fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

let t: BackendTestApp | undefined;
let temp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  temp?.remove();
  temp = undefined;
});

// A contact post from `from`; the body lacks its captcha (400), which the daily cap counts all the same.
const postContact = (from: string) =>
  t!.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: from, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(contact()) });

/** Counts one request of `key` in a daily window through a store made from `Store`, as the plugin would. */
function incrementDaily(counters: ReturnType<typeof sqliteRateLimitCounters>, key: string): Promise<{ current: number; ttl: number }> {
  const store = new counters.Store({}).child({ routeInfo: {} } as never);
  return new Promise((resolve, reject) => store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), DAY_MS, 10));
}

describe('daily rate-limit counters on SQLite', () => {
  it('regression: the daily contact cap holds after 5,000 other clients have posted', async () => {
    t = await testAppOn('sqlite', { rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 2 } });
    expect((await postContact('198.51.100.1')).statusCode).toBe(400);
    expect((await postContact('198.51.100.1')).statusCode).toBe(400);
    // 5,001 other clients: as many as the in-memory LRU held, and one more.
    for (let i = 0; i < 5_001; i++) await postContact(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    const third = await postContact('198.51.100.1');
    expect([third.statusCode, third.json().error?.code]).toEqual([429, 'rate_limited']);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(23 * 3600);
  });

  it('keeps a daily count across a restart of the service', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    const before = sqliteRateLimitCounters(path);
    await incrementDaily(before, 'contact-daily:192.0.2.5');
    await incrementDaily(before, 'contact-daily:192.0.2.5');
    before.close();
    const after = sqliteRateLimitCounters(path);
    expect((await incrementDaily(after, 'contact-daily:192.0.2.5')).current).toBe(3);
    after.close();
  });

  it('writes the daily counts to the file within FLUSH_MS, while the service runs', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    const running = sqliteRateLimitCounters(path);
    for (let i = 0; i < 3; i++) await incrementDaily(running, 'contact-daily:192.0.2.9');
    await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 2));
    // A second process opening the file now (the first one still running) finds the three posts.
    const reader = sqliteRateLimitCounters(path);
    expect((await incrementDaily(reader, 'contact-daily:192.0.2.9')).current).toBe(4);
    reader.close();
    running.close();
  });

  it('keeps the increments of a write that failed, and writes them once the file takes writes again', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    const counters = sqliteRateLimitCounters(path);
    const wait = () => new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 3));
    await incrementDaily(counters, 'contact-daily:192.0.2.11');
    await wait();
    // Another connection takes the table away: the next writes fail ("no such table").
    const other = new Database(path);
    other.exec('DROP TABLE counters');
    expect((await incrementDaily(counters, 'contact-daily:192.0.2.11')).current).toBe(2);
    expect((await incrementDaily(counters, 'contact-daily:192.0.2.11')).current).toBe(3);
    await wait();
    // The table comes back as the service makes it: opening the file creates it when missing.
    sqliteRateLimitCounters(path).close();
    await wait();
    // The two posts counted while writes failed reached the file (the one before went with the table).
    expect(other.prepare('SELECT hits FROM counters WHERE key = ?').get('contact-daily:192.0.2.11')).toEqual({ hits: 2 });
    other.close();
    counters.close();
  });

  it('adds up the counts of two services sharing the file', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    const [one, two] = [sqliteRateLimitCounters(path), sqliteRateLimitCounters(path)];
    await incrementDaily(one, 'contact-daily:192.0.2.10');
    await incrementDaily(one, 'contact-daily:192.0.2.10');
    await incrementDaily(two, 'contact-daily:192.0.2.10');
    one.close();
    two.close();
    const after = sqliteRateLimitCounters(path);
    expect((await incrementDaily(after, 'contact-daily:192.0.2.10')).current).toBe(4);
    after.close();
  });

  it('deletes a counter (it holds a client address) once its window has ended, and keeps the file owner-only', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    let now = Date.parse('2026-11-25T10:00:00Z');
    const counters = sqliteRateLimitCounters(path, () => now);
    const first = await incrementDaily(counters, 'contact-daily:192.0.2.6');
    expect(first).toEqual({ current: 1, ttl: DAY_MS });
    now += DAY_MS - 1;
    expect(counters.sweep()).toBe(0);
    now += 1;
    expect(counters.sweep()).toBe(1);
    expect((await incrementDaily(counters, 'contact-daily:192.0.2.6')).current).toBe(1);
    counters.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path).includes('192.0.2.6')).toBe(true);
  });

  it('replaces a damaged counter file with an empty one instead of refusing to start', async () => {
    temp = tempDir();
    const path = join(temp.dir, RATE_LIMIT_FILE);
    writeFileSync(path, 'not a database, after a power cut'.repeat(200));
    const counters = sqliteRateLimitCounters(path);
    expect((await incrementDaily(counters, 'contact-daily:192.0.2.7')).current).toBe(1);
    counters.close();
  });

  it('counts per-minute windows in memory, not in the file', async () => {
    temp = tempDir();
    const counters = sqliteRateLimitCounters(join(temp.dir, RATE_LIMIT_FILE));
    const store = new counters.Store({});
    const minute = () => new Promise<number>((resolve) => store.incr('192.0.2.8', (_e, result) => resolve(result!.current), 60_000, 10));
    expect([await minute(), await minute()]).toEqual([1, 2]);
    expect(counters.sweep(Number.MAX_SAFE_INTEGER)).toBe(0);
    counters.close();
  });
});
