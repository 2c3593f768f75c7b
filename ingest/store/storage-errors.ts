/**
 * Which errors thrown by a store mean "the database cannot take this now" — busy, locked,
 * unreachable, or its disk failed — as opposed to "this input is bad": the HTTP layer answers
 * the first kind 503 `unavailable` with Retry-After (the client may try again) and never needs
 * to know a database's error codes.
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
