/**
 * What the PostgreSQL store costs per signup, without HTTP, mails or a load generator (issue 45):
 * 50 callers hand signups (double opt-in, so each queues its confirmation mail and charges the
 * mail cap) to the store of a fresh migrated cluster, the next as soon as the last is stored, as
 * the service's routes do; the store's group commit gathers them into batches. Reported: signups
 * per second, CPU per signup in this process and in PostgreSQL's, rows per commit and per WAL
 * flush. The HTTP rows beside it (`ingest.bench.ts`) say what that is worth against a whole
 * request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../ingest/config.ts';
import { newsletterSchema, validate } from '../../ingest/contract/schemas.ts';
import { openBackend } from '../../ingest/store/open-backend.ts';
import { INSTALL_HINT, postgresBin } from '../helpers/postgres-cluster.ts';
import { concurrentCallers } from './concurrent-callers.ts';
import { clusterCounts, clusterCpuMicros, migratedCluster } from './postgres-commits.ts';
import { skippedRow } from './smoke.ts';

const CALLERS = 50;

/** The table's row, or one saying PostgreSQL is not installed. */
type StoreRow = Record<string, string | number>;

/** Stores `count` signups (after a warm-up) into a fresh cluster; see the module comment. */
export async function pgSignupStoreRows(count: number): Promise<StoreRow[]> {
  if (postgresBin() === null) return [{ 'PostgreSQL store, no HTTP': 'signups, double opt-in', ...skippedRow(INSTALL_HINT) }];
  const cluster = await migratedCluster();
  const dir = mkdtempSync(join(tmpdir(), 'ingest-pg-store-'));
  try {
    const config = resolveConfig({ DATA_DIR: dir, MAIL_DIR: join(dir, 'mail'), DATABASE_URL: cluster.url }, dir);
    if (!config.ok) throw new Error(config.errors.join('\n'));
    const backend = await openBackend(config.config);
    const store = concurrentCallers(CALLERS, async (n) => {
      const signup = validate(newsletterSchema, { name: 'Bench', email: `store-${n}@example${n % 97}.org`, privacyConsent: true, marketingConsent: n % 2 === 0, lang: 'pt' });
      if (!signup.ok) throw new Error('the bench signup does not pass the contract');
      const now = Date.now();
      await backend.submissions.subscribe(signup.data, now, { status: 'pending', expiresAt: now + 7 * 86_400_000, consentHash: 'c'.repeat(64), privacyVersion: '2026-11-25' });
    });
    let measured: { seconds: number; cpu: number; pg: number; commits: number };
    try {
      await store(Math.min(2_000, count));
      const batchesBefore = backend.groupCommitStats.batches;
      const [before, pgBefore, started] = [process.cpuUsage(), clusterCpuMicros(cluster.dataDir), performance.now()];
      await store(count);
      const used = process.cpuUsage(before);
      measured = {
        seconds: (performance.now() - started) / 1000,
        cpu: used.user + used.system,
        pg: (clusterCpuMicros(cluster.dataDir) ?? Number.NaN) - (pgBefore ?? Number.NaN),
        commits: backend.groupCommitStats.batches - batchesBefore,
      };
    } finally {
      await backend.close();
    }
    const { rows, walSyncs } = await clusterCounts(cluster.url);
    return [
      {
        'PostgreSQL store, no HTTP': 'signups, double opt-in',
        'signups/s': Math.round(count / measured.seconds),
        'CPU µs/signup': Math.round(measured.cpu / count),
        'PG CPU µs/signup': Number.isNaN(measured.pg) ? '-' : Math.round(measured.pg / count),
        'rows/commit': (count / measured.commits).toFixed(1),
        'rows/WAL flush (whole run)': (rows / walSyncs).toFixed(1),
      },
    ];
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
