/**
 * Where `ingest export --output FILE` writes: personal data, so the file is its owner's alone
 * (mode 0600 whatever the umask) and an existing file is never overwritten in place. Without
 * `replace` an existing file is refused; with it (`--force`) a new 0600 file is written beside it
 * and renamed over it, so the old file's mode, owner or other hard links never see the new data,
 * and a reader sees the old file or the new one, never a part.
 *
 *   writeOwnerOnlyFile('ana.json', text, { replace: false }) → { ok: true }
 *   writeOwnerOnlyFile('ana.json', text, { replace: false }) → { ok: false, problem: '--output ana.json exists already; …' }
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const OWNER_ONLY = 0o600;

/** Why a file could not be written, for the errors an operator can fix; null for any other (thrown as it is). */
function problemOf(path: string, error: NodeJS.ErrnoException): string | null {
  const name = JSON.stringify(path);
  if (error.code === 'EEXIST') return `--output ${name} exists already; name a new file, or add --force to replace it`;
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return `--output ${name}: its folder does not exist`;
  if (error.code === 'EISDIR') return `--output ${name} is a folder; name a file`;
  if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS') return `--output ${name} cannot be written there (${error.code})`;
  return null;
}

/** Creates `file` (never an existing one) readable and writable by its owner only, holding `text`, flushed to disk. */
function createOwnerOnly(file: string, text: string): void {
  const fd = openSync(file, 'wx', OWNER_ONLY);
  try {
    // The mode given to open is cut by the umask; fchmod sets it exactly.
    fchmodSync(fd, OWNER_ONLY);
    writeFileSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
}

/** Writes `text` to a new owner-only file at `path`; `replace` replaces an existing file atomically instead of refusing. */
export function writeOwnerOnlyFile(path: string, text: string, options: { replace: boolean }): { ok: true } | { ok: false; problem: string } {
  const temporary = options.replace ? join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`) : null;
  try {
    if (temporary === null) {
      createOwnerOnly(path, text);
    } else {
      createOwnerOnly(temporary, text);
      try {
        renameSync(temporary, path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
    }
    return { ok: true };
  } catch (error) {
    const problem = problemOf(path, error as NodeJS.ErrnoException);
    if (problem === null) throw error;
    return { ok: false, problem };
  }
}
