/**
 * Notices that the database files were removed, replaced or made unwritable under a running
 * service.
 *
 * An open SQLite connection keeps writing to the file it opened: if `ingest.sqlite` (or its
 * `-wal`) is deleted, or another file is moved into its place, every commit still succeeds, into a
 * file nobody will ever open again, and a restart finds the rows gone. better-sqlite3 does not
 * expose the descriptor to fstat, so the check compares what is at the path now (device and
 * inode) with what was there when the database was opened. A file that became immutable or whose
 * mount turned read-only is reported too (access(W_OK) says so even for root), before a write
 * through the memory-mapped `-shm` could end the process with SIGBUS.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { databaseFiles } from './connection.ts';

/** A file as it was when the database was opened. */
interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
}

/** Records the device and inode of the database file and of its `-wal`/`-shm` that exist now. */
export function recordDatabaseFiles(path: string): FileIdentity[] {
  return databaseFiles(path).flatMap((file) => {
    try {
      const { dev, ino } = statSync(file);
      return [{ path: file, dev, ino }];
    } catch {
      return [];
    }
  });
}

/**
 * Says what is wrong with the recorded files now, or null when each is still at its path and writable.
 *
 * @example databaseFilesProblem(recorded) // → '/data/ingest.sqlite was removed while the service ran'
 */
export function databaseFilesProblem(recorded: readonly FileIdentity[]): string | null {
  for (const file of recorded) {
    let now;
    try {
      now = statSync(file.path);
    } catch {
      return `${file.path} was removed while the service ran`;
    }
    if (now.ino !== file.ino || now.dev !== file.dev) return `${file.path} was replaced by another file while the service ran`;
    try {
      accessSync(file.path, constants.W_OK);
    } catch (error) {
      return `${file.path} is not writable (${(error as NodeJS.ErrnoException).code})`;
    }
  }
  return null;
}
