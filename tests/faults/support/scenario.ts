/**
 * What every fault scenario starts from and checks at the end: a throw-away PostgreSQL cluster,
 * a real SMTP peer, three replicas on them; afterwards every acknowledged submission stored, the
 * outbox drained with nothing failed, and each outbox row's mail delivered.
 */
import { afterEach, expect, it } from 'vitest';
import { INSTALL_HINT, type PostgresCluster, postgresBin, startPostgresCluster } from '../../helpers/postgres-cluster.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import type { LoadReport } from './load.ts';
import { type Deliveries, deliveries, outboxRows, storedAddresses, untilOutboxDrained } from '../../helpers/ledger.ts';
import { type ReplicaSet, startReplicas } from '../../helpers/replica-set.ts';

/**
 * `it` for a fault scenario. Without PostgreSQL a developer's run prints the one-line install hint
 * and skips the scenarios; in CI (`CI` set) they run, and fail with that line.
 */
export const scenario = postgresBin() === null && !process.env.CI ? it.skip : it;
if (postgresBin() === null && !process.env.CI) process.stderr.write(`fault suite: ${INSTALL_HINT}; skipping it.\n`);

/** A started stack; `stop` tears it down. */
export interface Stack {
  cluster: PostgresCluster;
  smtp: SmtpPeer;
  replicas: ReplicaSet;
  stop(): Promise<void>;
}

/**
 * For a file whose scenarios each need a stack of their own: returns the function that starts
 * one, and stops it after the test, whatever the test's outcome.
 */
export function stackPerTest(): (env?: Record<string, string>) => Promise<Stack> {
  let current: Stack | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  return async (env) => (current = await startStack(env));
}

/**
 * Three replicas (or `count`) on a new cluster and peer. The outbox lease is 3 s instead of
 * 60 s, so a killed replica's claimed row is taken over within the test's patience.
 */
export async function startStack(env: Record<string, string> = {}, count = 3): Promise<Stack> {
  const cluster = await startPostgresCluster();
  const smtp = await smtpPeer();
  try {
    const replicas = await startReplicas(count, cluster.url, smtp.url, { OUTBOX_LEASE_MS: '3000', ...env });
    return {
      cluster,
      smtp,
      replicas,
      async stop() {
        await replicas.stop();
        await smtp.close();
        cluster.stop();
      },
    };
  } catch (error) {
    await smtp.close();
    cluster.stop();
    throw error;
  }
}

/** The figures a scenario reports. */
export interface Books {
  acknowledged: number;
  outboxRows: number;
  delivered: Deliveries;
  drainMs: number;
}

/**
 * Checks the books after the load stopped: every acknowledged address is stored, the outbox
 * drains within `drainTimeoutMs` with no row failed, every row's mail arrived (so no email was
 * lost), and the mail of each acknowledged submission is among them.
 */
export async function checkBooks(stack: Stack, load: LoadReport, drainTimeoutMs = 120_000): Promise<Books> {
  const url = stack.cluster.url;
  const stored = await storedAddresses(url);
  expect(load.contacts.filter((email) => !stored.contacts.has(email)), 'acknowledged contacts missing from the database').toEqual([]);
  expect(load.signups.filter((email) => !stored.signups.has(email)), 'acknowledged signups missing from the database').toEqual([]);

  const drainMs = await untilOutboxDrained(url, drainTimeoutMs).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n${stack.replicas.logTails()}`);
  });
  const rows = await outboxRows(url);
  expect(rows.failed, 'outbox rows given up').toEqual([]);
  const delivered = deliveries(stack.smtp);
  expect(rows.sent.filter((id) => !delivered.perRow.has(id)), 'outbox rows whose mail never arrived').toEqual([]);
  expect([...delivered.perRow.keys()].filter((id) => !rows.sent.includes(id)), 'mail for rows the outbox does not list as sent').toEqual([]);
  const unmailed = [...load.contacts, ...load.signups].filter((email) => !delivered.text.includes(email));
  expect(unmailed, 'acknowledged submissions without a delivered mail').toEqual([]);
  return { acknowledged: load.contacts.length + load.signups.length, outboxRows: rows.sent.length, delivered, drainMs };
}

/** Prints one scenario's figures (the suite's report). */
export function reportFigures(scenario: string, figures: Record<string, number | string>): void {
  const cells = Object.entries(figures).map(([name, value]) => `${name}: ${value}`);
  process.stdout.write(`\n[faults] ${scenario} — ${cells.join(', ')}\n`);
}

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
