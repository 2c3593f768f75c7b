/**
 * What the erase scenario needs beside the bursts: `ingest erase --email` run as an operator runs
 * it (its own process, on the database the replicas use), and the records a subscription owns.
 */
import { spawn } from 'node:child_process';
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
