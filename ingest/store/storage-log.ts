/**
 * Where both backends log storage problems (a failed write or checkpoint, PostgreSQL gone, the
 * database file moved): the app's pino logger once it exists, standard error before that.
 */

/** Where storage problems are logged (the app's pino logger fits). */
export interface StorageLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Logs JSON lines to standard error, as pino would, until the app's logger takes over. */
export const stderrStorageLog: StorageLog = {
  error: (details, message) => process.stderr.write(`${JSON.stringify({ level: 'error', msg: message, ...details })}\n`),
  info: (details, message) => process.stderr.write(`${JSON.stringify({ level: 'info', msg: message, ...details })}\n`),
};
