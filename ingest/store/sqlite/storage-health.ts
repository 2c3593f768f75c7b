/**
 * Whether the database can take writes right now, as `/readyz` reports it: the last write error
 * (disk full, read-only, I/O error) until a write succeeds again, a failed WAL checkpoint until
 * one succeeds, and the database file removed or replaced (until a restart: the rows of this
 * process would go to a file nobody opens again).
 *
 * Each change is logged once: the problem at error level when it starts, at info when it ends.
 */

import type { StorageLog } from '../storage-log.ts';

/** The problems tracked, each a description or null. */
type Concern = 'write' | 'checkpoint' | 'files';

// SQLite codes that say the storage itself failed, as opposed to this input (a constraint) or a
// lock held by another process for a moment (BUSY, LOCKED).
const STORAGE_ERROR = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PERM)/;

/** True when `code` (e.g. `SQLITE_FULL`, `SQLITE_IOERR_WRITE`) means the disk or file failed. */
export function isStorageError(code: string | undefined): boolean {
  return code !== undefined && STORAGE_ERROR.test(code);
}

/** The current storage problems and their logging; see the module comment. */
export class StorageHealth {
  readonly #problems: Record<Concern, string | null> = { write: null, checkpoint: null, files: null };
  #log: StorageLog;

  constructor(log: StorageLog) {
    this.#log = log;
  }

  /** Sends later log lines to `log` (the service attaches the app's logger once it exists). */
  logTo(log: StorageLog): void {
    this.#log = log;
  }

  /** Records that a concern is fine (null) or what is wrong with it; the files' problem never clears. */
  set(concern: Concern, problem: string | null): void {
    const before = this.#problems[concern];
    if (before === problem || (concern === 'files' && before !== null)) return;
    this.#problems[concern] = problem;
    if (problem !== null) this.#log.error({ storage: concern, problem }, 'database storage failing, not ready');
    else this.#log.info({ storage: concern, was: before }, 'database storage recovered');
  }

  /** The first current problem, or null when writes can be acknowledged. */
  problem(): string | null {
    return this.#problems.files ?? this.#problems.write ?? this.#problems.checkpoint;
  }
}

