/**
 * A store for @fastify/rate-limit on the SQLite backend: per-minute counters in memory, long
 * windows (the daily caps) in a file of their own, so no number of other clients can push a
 * client's daily count out of memory.
 *
 * Why two places: the plugin's in-memory store is an LRU of 5,000 keys. Losing a one-minute
 * counter to eviction costs at most one extra minute's worth of requests; losing a daily one
 * would hand a client a fresh day's allowance (5,000 other clients were enough). So counters of
 * windows from an hour up live on disk, counted by one upsert each, and the per-minute ones stay
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
 * The keys hold client IP addresses, so the file is owner-only, deleted rows are overwritten
 * (`secure_delete`), and a counter is deleted within a minute of its window's end.
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

// Adds one to a key's counter, starting a new window of $window ms when none is running.
const INCREMENT = `
INSERT INTO counters (key, hits, reset_at) VALUES ($key, 1, $now + $window)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN reset_at <= $now THEN 1 ELSE hits + 1 END,
  reset_at = CASE WHEN reset_at <= $now THEN $now + $window ELSE reset_at END
RETURNING hits, reset_at`;

/** The rate-limit store of a SQLite service, and the handle that sweeps and closes its file. */
export interface SqliteRateLimitCounters {
  /** The class the plugin instantiates (`rateLimit({ store })`). */
  Store: FastifyRateLimitStoreCtor;
  /** Deletes the counters whose window has ended (runs every minute by itself; returns how many). */
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
  const increment = db.prepare<{ key: string; now: number; window: number }, { hits: number; reset_at: number }>(INCREMENT);
  const deleteEnded = db.prepare<{ now: number }>('DELETE FROM counters WHERE reset_at <= $now');
  const sweep = (now = clock()) => (db.open ? deleteEnded.run({ now }).changes : 0);
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
      let count: Count;
      try {
        const now = clock();
        const row = increment.get({ key: this.#prefix + key, now, window: timeWindow })!;
        count = { current: row.hits, ttl: Math.max(0, row.reset_at - now) };
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback(null, count);
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
      if (db.open) db.close();
    },
  };
}
