/**
 * The PostgreSQL side of `npm run bench:ingest`: a migrated throw-away cluster per scenario (so
 * its WAL counters belong to that scenario alone), the rate at which one connection can commit
 * rows durably, and how many rows each WAL flush carried.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migratePostgres } from '../../ingest/store/postgres/pg-migrate.ts';
import { newsletterRow } from '../../ingest/store/submission-store.ts';
import type { Tables } from '../../ingest/store/tables.ts';
import { type PostgresCluster, startPostgresCluster } from '../helpers/postgres-cluster.ts';

/** A cluster started with the server's defaults (`synchronous_commit = on`, `fsync = on`), its schema migrated. */
export async function migratedCluster(): Promise<PostgresCluster> {
  const cluster = await startPostgresCluster();
  await migratePostgres(cluster.url);
  return cluster;
}

/** The settings that make a commit durable, as the server reports them: `synchronous_commit=on, fsync=on, wal_sync_method=fdatasync`. */
export async function durabilitySettings(url: string): Promise<string> {
  const names = ['synchronous_commit', 'fsync', 'wal_sync_method', 'server_version'];
  const rows = await query<{ name: string; setting: string }>(url, 'SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [names]);
  return names.map((name) => `${name}=${rows.find((row) => row.name === name)?.setting}`).join(', ');
}

/** What a scenario left in its cluster: the newsletter rows, and how many times the WAL was flushed to disk. */
export async function clusterCounts(url: string): Promise<{ rows: number; walSyncs: number }> {
  const [rows] = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM newsletter');
  // Backends add their counts when they exit, so read this after the service has closed its pool.
  const [wal] = await query<{ wal_sync: string }>(url, 'SELECT wal_sync FROM pg_stat_wal');
  return { rows: Number(rows!.n), walSyncs: Number(wal!.wal_sync) };
}

/** Latencies of a commit loop, in ms, and how many rows it committed. */
export interface CommitLoopResult {
  commits: number;
  seconds: number;
  p50: number;
  p99: number;
}

/**
 * The single-connection commit rate: one connection inserts one newsletter row per statement,
 * each statement its own transaction (autocommit), for `seconds`. With `synchronous_commit = on`
 * every INSERT returns only after its WAL flush, so this is the most rows one connection can
 * commit durably, one after another: one round trip and one flush each, with no HTTP, no
 * validation and no other rows in the transaction. The service must beat it by sharing flushes.
 */
export async function commitLoop(url: string, seconds: number, run: string): Promise<CommitLoopResult> {
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  const terms = { status: 'pending', expiresAt: Date.now() + 86_400_000, consentHash: 'bench', privacyVersion: 'bench' } as const;
  const latencies: number[] = [];
  try {
    const end = performance.now() + seconds * 1000;
    for (let sequence = 0; performance.now() < end; sequence++) {
      const signup = { name: 'Bench Mark', email: `loop-${run}-${sequence}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'en' } as const;
      const started = performance.now();
      await db.insertInto('newsletter').values(newsletterRow(signup, Date.now(), terms)).execute();
      latencies.push(performance.now() - started);
    }
  } finally {
    await db.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (share: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]!.toFixed(2));
  return { commits: latencies.length, seconds, p50: at(0.5), p99: at(0.99) };
}

async function query<T>(url: string, text: string, parameters: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, parameters)).rows as T[];
  } finally {
    await client.end();
  }
}
