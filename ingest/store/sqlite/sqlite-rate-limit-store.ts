/**
 * A store for @fastify/rate-limit on the SQLite backend: per-minute counters in memory, long
 * windows (the daily caps) in a file of their own, so no number of other clients can push a
 * client's daily count out of memory.
 *
 * Why two places: the plugin's in-memory store is an LRU of 5,000 keys. Losing a one-minute
 * counter to eviction costs at most one extra minute's worth of requests; losing a daily one
 * would hand a client a fresh day's allowance (5,000 other clients were enough). So counters of
 * windows from an hour up (the daily caps, the forms' hourly ceilings) live on disk, counted by one upsert each, and the per-minute ones stay
 * in memory, where every request of the service touches them at no cost.
 *
 * Why a file of its own (`rate-limits.sqlite` beside the database), not the database's
 * `rate_limit_counters` table: an increment runs on the main thread, and in the database file
 * it would wait for the write lock held by the writer's commits and for an fsync of its
 * own. This file is written with `synchronous = OFF` (no fsync: a counter survives a restart of
 * the service, an operating-system crash may cost the last increments) and nobody else writes
 * to it. It is the same trade PostgreSQL's UNLOGGED counter table makes. A file that cannot be
 * opened (damaged by a power cut) is replaced by an empty one: the windows restart.
 *
 * Why written behind: a commit of its own for each form post cost about 45 µs of the service's
 * CPU (a WAL frame, the file's locks), a sixth of a contact post (`npm run bench:ingest`). A
 * daily counter is read from the file the first time the process counts its key, then counted in
 * memory, and the increments of every key counted since go to the file together, in one
 * transaction at most `FLUSH_MS` later, as an upsert that adds them (two processes sharing the
 * file add up, as they did one by one). The client is judged on the count in memory, which is at
 * least the file's. What a crash of the process can cost is the increments of the last
 * `FLUSH_MS`, as an operating-system crash can cost the last ones (`synchronous = OFF`);
 * `close()` writes them.
 *
 * The keys hold client IP addresses (or, for an IPv6 client's /56 and /48, their first bits; a
 * form's hourly ceiling holds none), so the file is owner-only, deleted rows are overwritten
 * (`secure_delete`), and a counter is deleted within a minute of its window's end, from memory
 * and from the file.
 */
import { rmSync } from 'node:fs';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
// @ts-expect-error -- the package ships no type for this file; MemoryStore below is its shape.
import LocalStoreModule from '@fastify/rate-limit/store/LocalStore.js';
import Database from 'better-sqlite3';
import { databaseFiles } from './connection.ts';
import { ownerOnlyFiles } from './owner-only.ts';

/** Windows this long or longer are counted on disk; shorter ones in memory. */
const PERSISTED_WINDOW_MS = 60 * 60 * 1000;

/** How often counters whose window has ended are deleted. */
const SWEEP_EVERY_MS = 60 * 1000;

/** How long increments counted in memory may wait before they are written to the file. */
export const FLUSH_MS = 200;

/** Keys kept in memory after a flush; beyond, they are dropped (the file has them) and read again when counted. */
const CACHED_KEYS = 10_000;

interface Count {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Count) => void;

// The plugin's own in-memory store (an LRU), which the package does not export by name.
type MemoryStore = FastifyRateLimitStore & { child(options: object): MemoryStore };
// Imported, not required by path at run time, so that the compiled service carries it in its bundle.
const LocalStore = LocalStoreModule as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => MemoryStore;

const SCHEMA = `CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at INTEGER NOT NULL) WITHOUT ROWID`;

// Adds $hits to a key's counter; when its window ended before $now, the counter starts again
// with them and the window counted in memory (ending at $resetAt).
const ADD = `
INSERT INTO counters (key, hits, reset_at) VALUES ($key, $hits, $resetAt)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN reset_at <= $now THEN $hits ELSE hits + $hits END,
  reset_at = CASE WHEN reset_at <= $now THEN $resetAt ELSE reset_at END
RETURNING hits, reset_at`;

/** A daily counter as this process knows it: the file's count at the last flush, plus `unwritten` hits counted since. */
interface Counter {
  hits: number;
  resetAt: number;
  unwritten: number;
}

/** The rate-limit store of a SQLite service, and the handle that sweeps and closes its file. */
export interface SqliteRateLimitCounters {
  /** The class the plugin instantiates (`rateLimit({ store })`). */
  Store: FastifyRateLimitStoreCtor;
  /** Writes the unwritten increments, then deletes the counters whose window has ended (runs every minute by itself; returns how many the file held). */
  sweep(now?: number): number;
  close(): void;
}

function openCounterFile(path: string): Database.Database {
  const open = () => {
    const db = new Database(path);
    ownerOnlyFiles(databaseFiles(path));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('secure_delete = ON');
    db.exec(SCHEMA);
    db.prepare('SELECT count(*) FROM counters').get();
    return db;
  };
  try {
    return open();
  } catch {
    // Damaged or not a database: counters are disposable, so start from an empty file.
    for (const file of databaseFiles(path)) rmSync(file, { force: true });
    return open();
  }
}

/** Opens (creating if needed) the counter file at `path`, e.g. `data/rate-limits.sqlite`. */
export function sqliteRateLimitCounters(path: string, clock: () => number = Date.now): SqliteRateLimitCounters {
  const db = openCounterFile(path);
  const read = db.prepare<{ key: string }, { hits: number; reset_at: number }>('SELECT hits, reset_at FROM counters WHERE key = $key');
  const add = db.prepare<{ key: string; hits: number; resetAt: number; now: number }, { hits: number; reset_at: number }>(ADD);
  const deleteEnded = db.prepare<{ now: number }>('DELETE FROM counters WHERE reset_at <= $now');
  const counters = new Map<string, Counter>();
  const unwritten = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;

  // Writes every key's unwritten hits in one transaction, then takes back the merged counts. A
  // failed write (a full disk) keeps them all for the next flush; the counts in memory still hold.
  const writeAll = db.transaction((now: number) =>
    [...unwritten].map((key) => {
      const counter = counters.get(key)!;
      return [counter, add.get({ key, hits: counter.unwritten, resetAt: counter.resetAt, now })!] as const;
    }),
  );
  const flush = () => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flushTimer = null;
    if (unwritten.size === 0 || !db.open) return;
    try {
      for (const [counter, row] of writeAll(clock())) Object.assign(counter, { hits: row.hits, resetAt: row.reset_at, unwritten: 0 });
      unwritten.clear();
      if (counters.size > CACHED_KEYS) counters.clear();
    } catch {
      flushTimer = setTimeout(flush, FLUSH_MS).unref();
    }
  };
  const count = (key: string, timeWindow: number): Counter => {
    const now = clock();
    let counter = counters.get(key);
    if (counter === undefined) {
      const row = read.get({ key });
      counter = { hits: row?.hits ?? 0, resetAt: row?.reset_at ?? 0, unwritten: 0 };
      counters.set(key, counter);
    }
    if (counter.resetAt <= now) Object.assign(counter, { hits: 0, resetAt: now + timeWindow, unwritten: 0 });
    counter.hits += 1;
    counter.unwritten += 1;
    unwritten.add(key);
    flushTimer ??= setTimeout(flush, FLUSH_MS).unref();
    return counter;
  };
  const sweep = (now = clock()) => {
    if (!db.open) return 0;
    flush();
    for (const [key, counter] of counters) if (counter.resetAt <= now && counter.unwritten === 0) counters.delete(key);
    return deleteEnded.run({ now }).changes;
  };
  sweep();
  const timer = setInterval(() => sweep(), SWEEP_EVERY_MS);
  timer.unref();

  class SqliteRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;
    readonly #memory: MemoryStore;

    constructor(_options?: unknown, prefix = 'global-', memory: MemoryStore = new LocalStore(false, false)) {
      this.#prefix = prefix;
      this.#memory = memory;
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      if (timeWindow < PERSISTED_WINDOW_MS) {
        this.#memory.incr(key, callback, timeWindow, max);
        return;
      }
      let counted: Count;
      try {
        const counter = count(this.#prefix + key, timeWindow);
        counted = { current: counter.hits, ttl: Math.max(0, counter.resetAt - clock()) };
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback(null, counted);
    }

    // As the PostgreSQL store does: a route's own limit counts apart, a limiter made with
    // `createRateLimit` (no route) names its keys itself (`contact-daily:<address>`).
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const prefix = route?.url === undefined ? '' : `${String(route.method)}${String(route.url)}-`;
      return new SqliteRateLimitStore(undefined, prefix, this.#memory.child(routeOptions));
    }
  }

  return {
    Store: SqliteRateLimitStore,
    sweep,
    close() {
      clearInterval(timer);
      flush();
      if (db.open) db.close();
    },
  };
}
