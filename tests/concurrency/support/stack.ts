/**
 * What each file of the concurrency suite runs its scenarios on, once per backend: on PostgreSQL
 * two replica processes (`node ingest/bin.js serve`) on one throw-away cluster, the requests of a
 * burst alternating between them; on SQLite one process on one file (several processes on one
 * SQLite file are not a supported mode). Both mail through a real SMTP peer and deliver their
 * webhook events to a real receiver, both in the test process.
 * One stack per backend and file, started together before the file's first scenario.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { INSTALL_HINT, type PostgresCluster, postgresBin, startPostgresCluster } from '../../helpers/postgres-cluster.ts';
import { type ReplicaSet, startReplicas } from '../../helpers/replica-set.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { type WebhookReceiver, webhookReceiver } from '../../helpers/webhook-receiver.ts';

/** The two databases the service runs on. */
type Backend = 'sqlite' | 'postgres';

/** The public site the replicas are configured with: the origin plain form posts must come from. */
export const SITE_URL = 'https://www.example.com';

/** Where the replicas send sales mail. */
export const SALES_EMAIL = 'sales@example.com';

/** A running stack. */
export interface Stack {
  backend: Backend;
  /** The service's `DATABASE_URL`: `postgres://…` or `sqlite:PATH`. */
  databaseUrl: string;
  /** The replicas' URLs (one on SQLite, two on PostgreSQL). */
  urls: string[];
  smtp: SmtpPeer;
  /** The webhook endpoint every replica delivers its events to (verifying each signature). */
  hooks: WebhookReceiver;
  /** What an operator's command on the replicas' host is run with (`ingest erase`, say). */
  operatorEnv: Record<string, string>;
  /** The end of each replica's log. */
  logTails(): string;
  stop(): Promise<void>;
}

// Every replica alike: links and form origins on one public site, and nothing that slows the
// scenarios down but what they test (replica-set.ts lifts the per-IP limits and the captcha's
// minimum fill time already).
const ENV = { SITE_URL, SALES_EMAIL, MAIL_FROM: 'forms@example.com' };

async function startStack(backend: Backend): Promise<Stack> {
  const smtp = await smtpPeer();
  const hooks = await webhookReceiver();
  let cluster: PostgresCluster | undefined;
  let folder: string | undefined;
  let replicas: ReplicaSet | undefined;
  const stop = async () => {
    await replicas?.stop();
    await smtp.close();
    await hooks.close();
    cluster?.stop();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  };
  try {
    let databaseUrl: string;
    if (backend === 'postgres') {
      cluster = await startPostgresCluster();
      databaseUrl = cluster.url;
    } else {
      folder = mkdtempSync(join(tmpdir(), 'ingest-concurrency-'));
      databaseUrl = `sqlite:${join(folder, 'ingest.sqlite')}`;
    }
    const env = { ...ENV, WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: hooks.secret, WEBHOOK_ALLOW_PRIVATE: '1' };
    replicas = await startReplicas(backend === 'postgres' ? 2 : 1, databaseUrl, smtp.url, env);
    const operatorEnv = { ...env, DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, DATA_DIR: mkdtempSync(join(folder ?? tmpdir(), 'operator-')) };
    return { backend, databaseUrl, urls: replicas.live(), smtp, hooks, operatorEnv, logTails: replicas.logTails, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// Without PostgreSQL a developer's run prints the install hint and runs SQLite alone; in CI
// (`CI` set) the PostgreSQL scenarios run, and fail with that line.
const withoutPostgres = postgresBin() === null && !process.env.CI;
if (withoutPostgres) process.stderr.write(`concurrency suite: ${INSTALL_HINT}; running it on SQLite only.\n`);

/**
 * Declares the file's scenarios once per backend: `define(stack)` runs inside a `describe` for
 * SQLite and one for PostgreSQL, and `stack()` is that backend's running stack. Both stacks start
 * together before the first scenario and stop after the last.
 *
 * @example onEachBackend((stack) => { it('…', async () => { await burst(… stack().urls …) }) });
 */
export function onEachBackend(define: (stack: () => Stack) => void): void {
  const backends: Backend[] = withoutPostgres ? ['sqlite'] : ['sqlite', 'postgres'];
  const running = new Map<Backend, Stack>();
  beforeAll(async () => {
    const started = await Promise.allSettled(backends.map(async (backend) => running.set(backend, await startStack(backend))));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([...running.values()].map((stack) => stack.stop()));
  });
  for (const backend of backends) {
    describe(backend === 'postgres' ? 'PostgreSQL, two replicas' : 'SQLite, one process', () => {
      define(() => {
        const stack = running.get(backend);
        if (stack === undefined) throw new Error(`the ${backend} stack did not start`);
        return stack;
      });
    });
  }
}
