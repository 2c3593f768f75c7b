/**
 * The outbox's row of `npm run bench:ingest`: a backlog of mails queued while the SMTP server was
 * away (2,000 sales mails by default), drained by one replica — the real `ingest serve` in a
 * process of its own, with its pooled SMTP transport at its defaults — to a local SMTP peer in the
 * bench's process. Reported: mails per second from the first mail received to the last, and how
 * long the service took from its start to the first mail. Target (issue 24): ≥ 200 mails/s with
 * one replica on SQLite. PostgreSQL gets a row too when it is installed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../ingest/config.ts';
import { openBackend } from '../../ingest/store/open-backend.ts';
import { INSTALL_HINT, postgresBin } from '../helpers/postgres-cluster.ts';
import { migratedCluster } from './postgres-commits.ts';
import { SMOKE, skippedRow } from './smoke.ts';
import { smtpSink } from './smtp-sink.ts';

const BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;
const TARGET_PER_SECOND = 200;

/** One backend's drain: mails, time to the first mail, drain time and rate. */
interface DrainRow {
  backlog: string;
  mails: number;
  'start → first mail s': string;
  'first → last mail s': string;
  'mails/s': number;
  /** The service's CPU time (user + system) per mail: what the rate would be on an idle core is 1000 / this. */
  'service CPU ms/mail': string;
  target?: string;
}

/** CPU time process `pid` has used so far, in ms (Linux: utime + stime of /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Queues `mails` sales mails (a verified contact each) in the database `env` names. */
async function queueBacklog(env: Record<string, string>, dir: string, mails: number): Promise<void> {
  const resolved = resolveConfig(env, dir);
  if (!resolved.ok) throw new Error(resolved.errors.join('\n'));
  const backend = await openBackend(resolved.config);
  const now = Date.now();
  for (let start = 0; start < mails; start += 200) {
    const batch = Array.from({ length: Math.min(200, mails - start) }, (_, i) => start + i);
    await Promise.all(
      batch.map((n) => {
        const fields = { firstName: 'Ana', lastName: `Backlog ${n}`, email: `lead-${n}@example.com`, phone: '+34 600 000 000', companyName: 'Acme Datos', country: 'es', message: `Backlog message ${n}`, captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
        return backend.submissions.submitContact(fields, { value: `bench-drain-${String(n).padStart(8, '0')}`, expiresAt: now + 600_000 }, now);
      }),
    );
  }
  await backend.close();
}

/** Drains `mails` queued mails through one `ingest serve` on the database `database` names. */
async function drain(backlog: string, database: Record<string, string>, mails: number): Promise<DrainRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-drain-'));
  const sink = await smtpSink();
  try {
    const env = { DATA_DIR: dir, ...database, SALES_EMAIL: 'sales@example.com', MAIL_FROM: 'MaskWise <forms@example.com>', PORT: '0', LOG_LEVEL: 'warn' };
    await queueBacklog(env, dir, mails);
    const startedAt = performance.now();
    const child = spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env, SMTP_URL: `${sink.url}?ignoreTLS=true` }, stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let firstAt: number | undefined;
    let cpuAtFirst = 0;
    let cpuAtLast = 0;
    try {
      // Polled every 2 ms: the figures are hundreds of milliseconds.
      while (sink.received() < mails) {
        if (child.exitCode !== null) throw new Error(`ingest serve exited with ${child.exitCode} after ${sink.received()} of ${mails} mails`);
        if (performance.now() - startedAt > 120_000) throw new Error(`only ${sink.received()} of ${mails} mails within 120 s`);
        if (firstAt === undefined && sink.received() > 0) {
          firstAt = performance.now();
          cpuAtFirst = cpuMs(child.pid!);
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      cpuAtLast = cpuMs(child.pid!);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const lastAt = performance.now();
    const drainSeconds = (lastAt - (firstAt ?? startedAt)) / 1000;
    const rate = Math.round((mails - 1) / drainSeconds);
    return {
      backlog,
      mails,
      'start → first mail s': (((firstAt ?? lastAt) - startedAt) / 1000).toFixed(2),
      'first → last mail s': drainSeconds.toFixed(2),
      'mails/s': rate,
      'service CPU ms/mail': ((cpuAtLast - cpuAtFirst) / (mails - 1)).toFixed(2),
    };
  } finally {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The drain rows: SQLite with its target verdict (none in a smoke run), then PostgreSQL, or a row
 * saying it is not installed.
 *
 * @example console.table(await outboxDrainRows(2000)) // [{ backlog: 'SQLite, 1 replica', mails: 2000, 'mails/s': 412, target: '≥ 200 mails/s: met' }, …]
 */
export async function outboxDrainRows(mails = 2000): Promise<Array<DrainRow | { backlog: string; skipped: string }>> {
  const sqlite = await drain('SQLite, 1 replica', {}, mails);
  if (!SMOKE) sqlite.target = `≥ ${TARGET_PER_SECOND} mails/s: ${sqlite['mails/s'] >= TARGET_PER_SECOND ? 'met' : 'NOT met'}`;
  const rows: Array<DrainRow | { backlog: string; skipped: string }> = [sqlite];
  if (postgresBin() === null) return [...rows, { backlog: 'PostgreSQL, 1 replica', ...skippedRow(INSTALL_HINT) }];
  const cluster = await migratedCluster();
  try {
    rows.push(await drain('PostgreSQL, 1 replica', { DATABASE_URL: cluster.url }, mails));
  } finally {
    cluster.stop();
  }
  return rows;
}
