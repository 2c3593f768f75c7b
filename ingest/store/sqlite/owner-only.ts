/**
 * Owner-only permissions for the service's data at rest (database, its `-wal`/`-shm`, mail files,
 * captcha secret): folders 0700, files 0600, whatever the process umask says.
 *
 * The modes are set explicitly rather than trusted to the umask, because a umask of 022 (the
 * usual default) would leave every visitor's name, email and message world-readable (0644).
 * `ingest serve` also sets umask 077 (`main.ts`), which covers the files other modules create
 * (the `.eml` files of the mail sink); these helpers fix folders and files that already exist.
 */
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The mode of a folder holding personal data. */
export const OWNER_ONLY_FOLDER = 0o700;

// The mode of a file holding personal data or a secret.
const OWNER_ONLY_FILE = 0o600;

/** Creates `dir` (and missing parents) as 0700, and narrows an existing `dir` to 0700. */
export function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_FOLDER });
  chmodIfPresent(dir, OWNER_ONLY_FOLDER);
}

/** Narrows each existing file of `paths` to 0600; a missing one is skipped. */
export function ownerOnlyFiles(paths: readonly string[]): void {
  for (const path of paths) chmodIfPresent(path, OWNER_ONLY_FILE);
}

/** Creates or narrows a folder to 0700 and narrows every file directly in it to 0600 (e.g. `$DATA_DIR/mail`). */
export function ownerOnlyFolderAndFiles(dir: string): void {
  ownerOnlyFolder(dir);
  const files = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile());
  ownerOnlyFiles(files.map((entry) => join(dir, entry.name)));
}

// False when the path does not exist. A file on a read-only mount or owned by someone else keeps
// its mode: that is the operator's setup, and opening the database reports what is wrong with it.
function chmodIfPresent(path: string, mode: number): boolean {
  try {
    chmodSync(path, mode);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'EPERM' || code === 'EROFS') return true;
    throw error;
  }
}
