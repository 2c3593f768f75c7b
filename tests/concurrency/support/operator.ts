/**
 * What the erase scenarios need beside the bursts: `ingest erase --email` run as an operator runs
 * it (its own process, on the database the replicas use), the records a subscription owns, and on
 * PostgreSQL a way to line requests up behind a row lock so that they meet the command in the
 * order a scenario wants.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { query } from '../../helpers/ledger.ts';
import type { Stack } from './stack.ts';

const BIN = new URL('../../../ingest/bin.js', import.meta.url).pathname;

/** What `ingest erase` did: its exit code, the subscriptions it says it removed, and all it printed. */
export interface Erasure {
  code: number | null;
  /** From its summary line (`erased …: newsletter 1, contacts 0, outbox 1`); NaN when it printed none. */
  newsletter: number;
  output: string;
}

/** Runs `ingest erase --email address` on the stack's database and resolves when it exits. */
export function runErase(stack: Stack, address: string): Promise<Erasure> {
  const child = spawn(process.execPath, [BIN, 'erase', '--email', address], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...stack.operatorEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, newsletter: Number(/newsletter (\d+)/.exec(output)?.[1] ?? Number.NaN), output })),
  );
}

/** Runs `ingest ARGS…` as an operator on the stack's host (`webhooks retry --all`, say); resolves with its exit code and all it printed. */
export function runIngest(stack: Stack, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...stack.operatorEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** The records the address's subscription owns, if it has one: its `subscribed` events and its outbox rows. */
export async function subscriptionRecords(stack: Stack, address: string): Promise<{ subscribed: number; outbox: number }> {
  const key = `'${address.toLowerCase()}'`;
  const [events] = await query<{ n: number | string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM consent_events e JOIN newsletter s ON e.newsletter_id = s.id WHERE s.email_lower = ${key} AND e.event = 'subscribed'`,
  );
  const [outbox] = await query<{ n: number | string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM outbox o JOIN newsletter s ON o.newsletter_id = s.id WHERE s.email_lower = ${key}`,
  );
  return { subscribed: Number(events?.n ?? 0), outbox: Number(outbox?.n ?? 0) };
}

/**
 * PostgreSQL: locks the address's subscription row in a transaction of the test's own, as a
 * request that is changing it holds it, until `release()` commits. Requests and commands that
 * need the row queue behind it in the order they arrive, so a test can line them up.
 */
export async function holdSubscription(stack: Stack, address: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT id FROM newsletter WHERE email_lower = $1 FOR UPDATE', [address.toLowerCase()]);
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/**
 * PostgreSQL: waits until at least `n` sessions wait for a lock (whatever their statement), and
 * resolves with how many did; after `timeoutMs` it resolves with fewer rather than fail, since the
 * line-up only makes a bad interleaving likely and the scenario judges the outcome alone.
 */
export async function untilWaiting(stack: Stack, n: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await query<{ n: number | string }>(stack.databaseUrl, "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
    const waiting = Number(row?.n ?? 0);
    if (waiting >= n || Date.now() > deadline) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
