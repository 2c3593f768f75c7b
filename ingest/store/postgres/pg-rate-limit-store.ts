/**
 * A store for @fastify/rate-limit whose counters live in PostgreSQL, so a client gets N requests
 * per window across all replicas together, not N per replica.
 *
 * Why a table and not Redis (which the plugin supports out of the box): PostgreSQL is already
 * there, and a second stateful service to run, secure and back up would be the price. The table is
 * UNLOGGED (see migrations.ts): an increment writes no WAL and waits for no disk flush; a crash
 * empties it, which merely restarts the windows. The upsert is atomic per key (the row lock orders
 * concurrent increments from every replica), and the window is timed by the database's clock, so
 * replicas' clocks need not agree.
 *
 * Every request increments a counter, so the increments a replica receives together go out as
 * one statement (one round trip, through `GroupCommit`): per key, n requests add n at once and
 * get the n counts they would have got one after another. Input → output, `ip-a` at 4 before:
 *
 *   incr(ip-a), incr(ip-b), incr(ip-a) → one upsert: ip-a +2, ip-b +1 → 5, 1, 6
 *
 * The upsert is the statement the service runs most (three counters a signup, about 450
 * statements a second under the ingest bench's load), always the same text: it goes to the pool as
 * a named prepared statement, so each connection has PostgreSQL parse and plan it once and then
 * sends only its parameters, without Kysely's query executor in between (issue 45).
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type pg from 'pg';
import { GroupCommit, type JobResult } from '../group-commit.ts';
import type { PostgresHealth } from './pg-health.ts';

// The statement's start in ms since the epoch, by the database's clock.
const NOW_MS = `(floor(extract(epoch from statement_timestamp()) * 1000))::bigint`;

// Adds each key's count ($2) to its counter, starting a window of $3 ms for a counter that has
// none running. Keys are locked in order, so two replicas' statements cannot deadlock.
const INCREMENT_MANY = `
INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
SELECT key, n, ${NOW_MS} + window_ms FROM unnest($1::text[], $2::int[], $3::bigint[]) AS t(key, n, window_ms) ORDER BY key
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN c.reset_at <= ${NOW_MS} THEN EXCLUDED.hits ELSE c.hits + EXCLUDED.hits END,
  reset_at = CASE WHEN c.reset_at <= ${NOW_MS} THEN EXCLUDED.reset_at ELSE c.reset_at END
RETURNING key, hits, c.reset_at - ${NOW_MS} AS ttl`;

/** Deletes the counters whose window ended more than a minute ago (run now and then). */
export const DELETE_EXPIRED_COUNTERS = `DELETE FROM rate_limit_counters WHERE reset_at < ${NOW_MS} - 60000`;

/** One request's increment, and what the plugin is told back. */
interface Increment {
  key: string;
  windowMs: number;
}
interface Count {
  current: number;
  ttl: number;
}

/** The store class the plugin instantiates (`rateLimit({ store })`), counting in `pool`'s database. */
export function postgresRateLimitStore(pool: pg.Pool, health: PostgresHealth): FastifyRateLimitStoreCtor {
  const incrementMany = async (increments: Increment[]): Promise<Array<JobResult<Count>>> => {
    const perKey = new Map<string, { n: number; windowMs: number }>();
    for (const { key, windowMs } of increments) perKey.set(key, { n: (perKey.get(key)?.n ?? 0) + 1, windowMs });
    const keys = [...perKey.keys()];
    const { rows } = await health.guard(() =>
      pool.query<{ key: string; hits: number; ttl: string }>({
        name: 'rate-limit-increment-many',
        text: INCREMENT_MANY,
        values: [keys, keys.map((key) => perKey.get(key)!.n), keys.map((key) => perKey.get(key)!.windowMs)],
      }),
    );
    const counted = new Map(rows.map((row) => [row.key, { hits: row.hits, ttl: Math.max(0, Number(row.ttl)), handedOut: 0 }]));
    // A key's increments get its new total minus those after them: n requests of a key see hits - n + 1 … hits.
    return increments.map(({ key }) => {
      const count = counted.get(key)!;
      count.handedOut += 1;
      return { ok: true, value: { current: count.hits - perKey.get(key)!.n + count.handedOut, ttl: count.ttl } };
    });
  };
  const increments = new GroupCommit(incrementMany, { maxBatch: 512, maxDelayMs: 0 });

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(_options?: unknown, prefix = 'global-') {
      this.#prefix = prefix;
    }

    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
      increments.submit({ key: this.#prefix + key, windowMs: timeWindow }).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
    }

    // A route with its own limit counts apart from the global one (the plugin's RedisStore does the
    // same). A limiter made with `createRateLimit` has no route: its keys carry their own name (the
    // contact route's daily cap counts `contact-daily:<address>`, its /48 `contact-daily-48:<prefix>`,
    // the form's hourly ceiling `contact-hourly`), each with the window it was given.
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new PostgresRateLimitStore(undefined, route?.url === undefined ? '' : `${String(route.method)}${String(route.url)}-`);
    }
  }
  return PostgresRateLimitStore;
}
