/**
 * A store for @fastify/rate-limit whose counters live in PostgreSQL, so a client gets N requests
 * per window across all replicas together, not N per replica.
 *
 * Why a table and not Redis (which the plugin supports out of the box): PostgreSQL is already
 * there, and a second stateful service to run, secure and back up would be the price. The table is
 * UNLOGGED (see migrations.ts): an increment is one upsert that writes no WAL and waits for no
 * disk flush, a fraction of a millisecond; a crash empties it, which merely restarts the windows.
 * The upsert is atomic per key (the row lock orders concurrent increments from every replica),
 * and the window is timed by the database's clock, so replicas' clocks need not agree.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Tables } from '../tables.ts';
import type { PostgresHealth } from './pg-health.ts';
import { raw } from './pg-connection.ts';

// The statement's start in ms since the epoch, by the database's clock.
const NOW_MS = `(floor(extract(epoch from statement_timestamp()) * 1000))::bigint`;

const INCREMENT = `
INSERT INTO rate_limit_counters AS c (key, hits, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN c.reset_at <= ${NOW_MS} THEN 1 ELSE c.hits + 1 END,
  reset_at = CASE WHEN c.reset_at <= ${NOW_MS} THEN EXCLUDED.reset_at ELSE c.reset_at END
RETURNING hits, c.reset_at - ${NOW_MS} AS ttl`;

/** Deletes the counters whose window ended more than a minute ago (run now and then). */
export const DELETE_EXPIRED_COUNTERS = `DELETE FROM rate_limit_counters WHERE reset_at < ${NOW_MS} - 60000`;

/** The store class the plugin instantiates (`rateLimit({ store })`), counting in `kysely`'s database. */
export function postgresRateLimitStore(kysely: Kysely<Tables>, health: PostgresHealth): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(_options?: unknown, prefix = 'global-') {
      this.#prefix = prefix;
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      health
        .guard(() => kysely.executeQuery<{ hits: number; ttl: string }>(raw(INCREMENT, [this.#prefix + key, timeWindow])))
        .then(
          ({ rows: [row] }) => callback(null, { current: row!.hits, ttl: Math.max(0, Number(row!.ttl)) }),
          (error: Error) => callback(error),
        );
    }

    // A route with its own limit counts apart from the global one (the plugin's RedisStore does the same).
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new PostgresRateLimitStore(undefined, `${String(route?.method ?? '')}${String(route?.url ?? '')}-`);
    }
  }
  return PostgresRateLimitStore;
}
