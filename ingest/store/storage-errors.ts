/**
 * Which errors thrown by a store mean "the database cannot take this now" — busy, locked,
 * unreachable, or its disk failed — as opposed to "this input is bad": the HTTP layer answers
 * the first kind 503 `unavailable` with Retry-After (the client may try again) and never needs
 * to know a database's error codes. And which of them mean the storage itself failed, which
 * makes the store not ready (`storage-health.ts`).
 */

// SQLite's codes for a busy or locked database and a failed disk or file (`SQLITE_IOERR_WRITE` too).
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

/**
 * True for an error that means the storage is unavailable: SQLite's codes above, or an error a
 * store raised as unavailable itself (PostgreSQL's `DatabaseUnavailableError`, status 503).
 *
 * @example isStorageUnavailable({ code: 'SQLITE_FULL' }) // → true
 * @example isStorageUnavailable({ code: 'SQLITE_CONSTRAINT_UNIQUE' }) // → false
 */
export function isStorageUnavailable(error: object): boolean {
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return (typeof code === 'string' && SQLITE_UNAVAILABLE.test(code)) || statusCode === 503;
}

// SQLite codes that say the storage itself failed, as opposed to this input (a constraint) or a
// lock held by another process for a moment (BUSY, LOCKED).
const SQLITE_STORAGE_FAILED = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PERM)/;

/**
 * True when a SQLite `code` means the disk or the file failed (the store is then not ready until a
 * write succeeds again), not this request's input nor a passing lock.
 *
 * @example isStorageFailure('SQLITE_IOERR_WRITE') // → true
 * @example isStorageFailure('SQLITE_BUSY') // → false
 */
export function isStorageFailure(code: string | undefined): boolean {
  return code !== undefined && SQLITE_STORAGE_FAILED.test(code);
}
