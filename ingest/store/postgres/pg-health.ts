/**
 * Whether PostgreSQL can serve right now, as `/readyz` reports it: every database call goes
 * through `guard`, which records the last failure that made the database unavailable (until a
 * call succeeds again) and turns it into a `DatabaseUnavailableError` (503); `probe` runs on a
 * timer, so readiness comes back by itself after an outage even if no request comes to try.
 * The problem is kept and logged by the shared `StorageHealth` (`store/storage-health.ts`).
 */
import type { Kysely } from 'kysely';
import { allApplied } from '../migrations.ts';
import { StorageHealth } from '../storage-health.ts';
import type { StorageLog } from '../storage-log.ts';
import { DatabaseUnavailableError, isUnavailable } from './pg-connection.ts';

/** The database's availability and schema state; see the module comment. */
export class PostgresHealth {
  readonly #health: StorageHealth<'postgres'>;
  #schemaCurrent = false;

  constructor(log: StorageLog) {
    // One outage is logged once, however its error message changes while it lasts.
    this.#health = new StorageHealth(['postgres'], log, {
      logChanges: false,
      messages: { failing: 'database unavailable, not ready', recovered: 'database available again' },
    });
  }

  /** Sends later log lines to `log`. */
  logTo(log: StorageLog): void {
    this.#health.logTo(log);
  }

  /** Runs one database call: records the outcome and rethrows an outage as `DatabaseUnavailableError`. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      this.#health.set('postgres', (error as Error).message ?? String(error));
      throw new DatabaseUnavailableError(error);
    }
    this.#health.set('postgres', null);
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
    return this.#health.problem() === null && this.#schemaCurrent;
  }
}
