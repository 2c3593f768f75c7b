/**
 * Writing a record the build keeps for the next one (the manifest, the build record, the front
 * matter cache, the discovery records, the kept file memos): the text goes into a temporary file
 * beside it, the old record is deleted, and the new one renamed into its place. A reader finds
 * the whole old record, none, or the whole new one, never half of one; none counts as no record
 * (the next build does more work, nothing wrong). The old file is deleted before the rename
 * because ext4 writes a file renamed over another to disk before the rename returns (its
 * `auto_da_alloc`): 5–17 ms a record while the build's threads write the output, not needed for
 * a cache that may be lost.
 *
 *   writeRecordFile('/site/.sitegen-cache/dist/manifest.json', JSON.stringify(manifest));
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Replaces the record at `file` (its folder made when missing) with `text`. */
export function writeRecordFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  rmSync(file, { force: true });
  renameSync(temporary, file);
}
