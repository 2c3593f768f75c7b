/**
 * The books the fault and concurrency suites check after each scenario: what the database holds
 * (read directly with `pg` or better-sqlite3, not through the service under test) and what the
 * SMTP peer received, matched by the stable Message-ID each outbox row's mail carries
 * (`…outbox-<id>@ingest.invalid`).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { SmtpPeer } from './smtp-peer.ts';

/**
 * Runs one query on a short-lived connection to `databaseUrl`, the service's `DATABASE_URL`:
 * `postgres://…`, or `sqlite:PATH` (opened read-only beside the service's own connection).
 * PostgreSQL's counts come back as text: read them with `Number`.
 */
export async function query<Row>(databaseUrl: string, text: string): Promise<Row[]> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(sqlitePath(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(text).all() as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

/**
 * Runs one statement that changes rows (a scenario's setup: "as if ten minutes had passed") on a
 * short-lived connection; on SQLite it waits up to 5 s for the service's write lock.
 */
export async function execute(databaseUrl: string, text: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(sqlitePath(databaseUrl), { fileMustExist: true, timeout: 5000 });
    try {
      db.prepare(text).run();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

// `sqlite:PATH` or `sqlite://PATH` → PATH, as the service reads DATABASE_URL.
const sqlitePath = (databaseUrl: string) => databaseUrl.replace(/^sqlite:(\/\/)?/, '');

/** The addresses stored in each form's table. */
export async function storedAddresses(databaseUrl: string): Promise<{ contacts: Set<string>; signups: Set<string> }> {
  const contacts = await query<{ email: string }>(databaseUrl, 'SELECT email FROM contacts');
  const signups = await query<{ email: string }>(databaseUrl, 'SELECT email FROM newsletter');
  return { contacts: new Set(contacts.map((row) => row.email)), signups: new Set(signups.map((row) => row.email)) };
}

/** Outbox row ids by status. */
export async function outboxRows(databaseUrl: string): Promise<Record<'pending' | 'sending' | 'sent' | 'failed', number[]>> {
  const rows = await query<{ id: string | number; status: 'pending' | 'sending' | 'sent' | 'failed' }>(databaseUrl, 'SELECT id, status FROM outbox ORDER BY id');
  const byStatus = { pending: [] as number[], sending: [] as number[], sent: [] as number[], failed: [] as number[] };
  for (const row of rows) byStatus[row.status].push(Number(row.id));
  return byStatus;
}

/** Waits until no outbox row is pending or sending; resolves with how long that took (ms). */
export async function untilOutboxDrained(databaseUrl: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const rows = await outboxRows(databaseUrl).catch(() => null);
    if (rows !== null && rows.pending.length === 0 && rows.sending.length === 0) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`outbox not drained after ${timeoutMs} ms: ${JSON.stringify(rows && { pending: rows.pending.length, sending: rows.sending.length })}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What the SMTP peer accepted, per outbox row. */
export interface Deliveries {
  /** Outbox row id → how many times its mail was accepted. */
  perRow: Map<number, number>;
  /** Accepted messages in all. */
  total: number;
  /** Accepted messages beyond the first of their Message-ID. */
  duplicates: number;
  /** The full text of every accepted message, joined (to look addresses up). */
  text: string;
}

/** Counts the peer's accepted messages by Message-ID. */
export function deliveries(peer: SmtpPeer): Deliveries {
  const perRow = new Map<number, number>();
  for (const raw of peer.messages) {
    const id = /^Message-ID:\s*<[^>]*\.outbox-(\d+)@[^>]+>/im.exec(raw)?.[1];
    if (id === undefined) throw new Error(`a delivered message without an outbox Message-ID:\n${raw.slice(0, 500)}`);
    perRow.set(Number(id), (perRow.get(Number(id)) ?? 0) + 1);
  }
  return { perRow, total: peer.messages.length, duplicates: peer.messages.length - perRow.size, text: peer.messages.join('\n') };
}
