/**
 * Whether a database can serve right now, as `/readyz` reports it, for both backends: a record of
 * the current problem of each concern (SQLite: `write`, `checkpoint`, `files`; PostgreSQL:
 * `postgres`), each change logged once — at error level when a problem starts, at info when it
 * ends. `sqlite/` and `postgres/` say what a concern's problem is and when it clears.
 *
 *   const health = new StorageHealth(['write', 'files'], log, { sticky: ['files'] });
 *   health.set('write', 'write failed: SQLITE_FULL'); // logs "database storage failing, not ready"
 *   health.problem(); // → 'write failed: SQLITE_FULL'
 */
import type { StorageLog } from './storage-log.ts';

/** How a health record behaves. */
interface StorageHealthOptions<Concern extends string> {
  /** Concerns whose problem never clears (a removed database file: until a restart). */
  sticky?: readonly Concern[];
  /** Log a problem whose description changes while it lasts (default true); false: only its start and end. */
  logChanges?: boolean;
  /** The log lines' words: `failing` when a problem starts, `recovered` when it ends. */
  messages?: { failing: string; recovered: string };
}

const DEFAULT_MESSAGES = { failing: 'database storage failing, not ready', recovered: 'database storage recovered' };

/** The current problems of `concerns`, in the order they are given (the first one is reported). */
export class StorageHealth<Concern extends string> {
  readonly #problems = new Map<Concern, string | null>();
  readonly #options: Required<StorageHealthOptions<Concern>>;
  #log: StorageLog;

  constructor(concerns: readonly Concern[], log: StorageLog, options: StorageHealthOptions<Concern> = {}) {
    for (const concern of concerns) this.#problems.set(concern, null);
    this.#log = log;
    this.#options = { sticky: options.sticky ?? [], logChanges: options.logChanges ?? true, messages: options.messages ?? DEFAULT_MESSAGES };
  }

  /** Sends later log lines to `log` (the service attaches the app's logger once it exists). */
  logTo(log: StorageLog): void {
    this.#log = log;
  }

  /** Records that a concern is fine (null) or what is wrong with it. */
  set(concern: Concern, problem: string | null): void {
    const before = this.#problems.get(concern) ?? null;
    if (before === problem || (before !== null && this.#options.sticky.includes(concern))) return;
    this.#problems.set(concern, problem);
    const { failing, recovered } = this.#options.messages;
    if (problem === null) this.#log.info({ storage: concern, was: before }, recovered);
    else if (before === null || this.#options.logChanges) this.#log.error({ storage: concern, problem }, failing);
  }

  /** The first current problem (in the concerns' order), or null when the database can serve. */
  problem(): string | null {
    for (const problem of this.#problems.values()) if (problem !== null) return problem;
    return null;
  }
}
