/**
 * Whether PostgreSQL can serve right now, as `/readyz` reports it: every database call goes
 * through `guard`, which records the last failure that made the database unavailable (until a
 * call succeeds again) and turns it into a `DatabaseUnavailableError` (503); `probe` runs on a
 * timer, so readiness comes back by itself after an outage even if no request comes to try.
 * Each change is logged once: the problem at error level when it starts, at info when it ends.
 */
import type { Kysely } from 'kysely';
import { allApplied } from '../migrations.ts';
import type { StorageLog } from '../storage-log.ts';
import { DatabaseUnavailableError, isUnavailable } from './pg-connection.ts';

/** The database's availability and schema state; see the module comment. */
export class PostgresHealth {
  #problem: string | null = null;
  #schemaCurrent = false;
  #log: StorageLog;

  constructor(log: StorageLog) {
    this.#log = log;
  }

  /** Sends later log lines to `log`. */
  logTo(log: StorageLog): void {
    this.#log = log;
  }

  /** Runs one database call: records the outcome and rethrows an outage as `DatabaseUnavailableError`. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      this.#set((error as Error).message ?? String(error));
      throw new DatabaseUnavailableError(error);
    }
    this.#set(null);
    return result;
  }

  /** Asks the database which migrations it has; unreachable or behind means not ready. */
  async probe(kysely: Kysely<any>): Promise<void> {
    try {
      const rows = await this.guard(() => kysely.selectFrom('kysely_migration').select('name').execute());
      this.#schemaCurrent = allApplied(rows.map((row: { name: string }) => row.name));
    } catch {
      // Recorded by guard (an outage) or a missing table (schema not current).
      this.#schemaCurrent = false;
    }
  }

  /** True when the last call succeeded and the schema is current. */
  ready(): boolean {
    return this.#problem === null && this.#schemaCurrent;
  }

  #set(problem: string | null): void {
    const before = this.#problem;
    if (before === problem || (before !== null && problem !== null)) return;
    this.#problem = problem;
    if (problem !== null) this.#log.error({ storage: 'postgres', problem }, 'database unavailable, not ready');
    else this.#log.info({ storage: 'postgres', was: before }, 'database available again');
  }
}
