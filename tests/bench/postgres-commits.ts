/**
 * The PostgreSQL side of `npm run bench:ingest`: a migrated throw-away cluster per scenario (so
 * its WAL counters belong to that scenario alone), the rate at which one connection can commit
 * rows durably, and how many rows each WAL flush carried.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migratePostgres } from '../../ingest/store/postgres/pg-migrate.ts';
import { newsletterRow } from '../../ingest/store/submission-store.ts';
import type { Tables } from '../../ingest/store/tables.ts';
import { type PostgresCluster, startPostgresCluster } from '../helpers/postgres-cluster.ts';

/**
 * A cluster started with the server's defaults (`synchronous_commit = on`, `fsync = on`) but for
 * `settings` (`--pg-setting`), its schema migrated; with `statements`, pg_stat_statements loaded
 * too, so `topStatements` can say which statements the scenario's commits came from.
 */
export async function migratedCluster(statements = false, settings: Record<string, string> = {}): Promise<PostgresCluster> {
  const cluster = await startPostgresCluster({ ...settings, ...(statements ? { shared_preload_libraries: 'pg_stat_statements' } : {}) });
  await migratePostgres(cluster.url);
  if (statements) await query(cluster.url, 'CREATE EXTENSION pg_stat_statements');
  return cluster;
}

/** One statement's share of a scenario's work, as pg_stat_statements counted it. */
export interface StatementCount {
  statement: string;
  calls: number;
  rows: number;
  /** WAL records it wrote: a statement that writes none (a read, an UNLOGGED table) never waits for a flush. */
  walRecords: number;
}

/**
 * The statements that ran most often in the cluster (`--pg-statements`), the commits among them:
 * a statement run outside a transaction block commits on its own, so one with WAL records and as
 * many calls as rows stored pays a WAL flush per row.
 */
export async function topStatements(url: string, limit = 12): Promise<StatementCount[]> {
  const rows = await query<{ query: string; calls: string; rows: string; wal_records: string }>(
    url,
    `SELECT query, calls, rows, wal_records FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    statement: row.query.replace(/\s+/g, ' ').slice(0, 110),
    calls: Number(row.calls),
    rows: Number(row.rows),
    walRecords: Number(row.wal_records),
  }));
}

/** The settings that make a commit durable, as the server reports them: `synchronous_commit=on, fsync=on, wal_sync_method=fdatasync`. */
export async function durabilitySettings(url: string): Promise<string> {
  const names = ['synchronous_commit', 'fsync', 'wal_sync_method', 'wal_writer_delay', 'commit_delay', 'commit_siblings', 'server_version'];
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

/**
 * The CPU time (user + system, µs) the cluster in `dataDir` has used so far: the postmaster, its
 * live processes (backends, WAL writer, checkpointer…) and those that have exited (counted in the
 * postmaster's children's time). Read twice around a measurement, the difference is what the
 * scenario cost PostgreSQL, on the same two cores as the service and the load. Linux only (/proc);
 * null elsewhere.
 */
export function clusterCpuMicros(dataDir: string): number | null {
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const tick = 1_000_000 / CLOCK_TICKS;
    // /proc/<pid>/stat after the command's closing parenthesis: state, ppid, … utime (14), stime, cutime, cstime.
    const fields = (pid: string) => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    const own = fields(String(postmaster));
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid) || Number(pid) === postmaster) continue;
      try {
        const stat = fields(pid);
        if (Number(stat[1]) === postmaster) ticks += Number(stat[11]) + Number(stat[12]);
      } catch {
        // The process ended between the listing and the read: its time is in the postmaster's children's now.
      }
    }
    return ticks * tick;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ (`getconf CLK_TCK`), the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;
