import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHashes, keptHashes } from '../../../../cli/pipeline/cache/file-hashes.ts';

const dir = mkdtempSync(join(tmpdir(), 'file-hashes-'));
/** Writes `text` to `name` with the given modification time (seconds since 1970), so a test controls what the file system reports. */
function write(name: string, text: string, mtime: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  utimesSync(path, mtime, mtime);
  return path;
}
const LONG_AGO = 1_700_000_000;

describe('file hashes kept between builds', () => {
  it('hashes the bytes: equal files hash alike, another text differently', () => {
    const hashes = new FileHashes();
    const a = write('a.json', '{"x": 1}', LONG_AGO);
    const b = write('b.json', '{"x": 1}', LONG_AGO);
    const c = write('c.json', '{"x": 2}', LONG_AGO);
    expect(hashes.of(a)).toBe(hashes.of(b));
    expect(hashes.of(c)).not.toBe(hashes.of(a));
  });

  it('reads a file again when its size or time changed', () => {
    const path = write('d.json', '{"x": 1}', LONG_AGO);
    const first = new FileHashes();
    const before = first.of(path);
    write('d.json', '{"x": 22}', LONG_AGO);
    expect(new FileHashes(first.kept()).of(path), 'another size').not.toBe(before);
    write('d.json', '{"x": 3}', LONG_AGO + 60);
    expect(new FileHashes(first.kept()).of(path), 'another time').not.toBe(before);
  });

  it('does not read a file found with the size and time it had when hashed (as git trusts its index)', () => {
    const path = write('e.json', '{"x": 1}', LONG_AGO);
    const first = new FileHashes();
    const before = first.of(path);
    write('e.json', '{"x": 2}', LONG_AGO); // same size, time set back: not read again
    expect(new FileHashes(first.kept()).of(path)).toBe(before);
  });

  it('keeps a file changed within two seconds of being hashed without its time, so the next build reads it again', () => {
    const path = join(dir, 'racy.json');
    writeFileSync(path, '{"x": 1}');
    const first = new FileHashes();
    const before = first.of(path);
    const kept = first.kept();
    expect(kept.mtimes[kept.paths.indexOf(path)]).toBe(-1);
    // Changed within the same tick of a coarse clock: same size, same time.
    const { mtime } = statSync(path);
    writeFileSync(path, '{"x": 2}');
    utimesSync(path, mtime, mtime);
    expect(new FileHashes(kept).of(path)).not.toBe(before);
  });

  it('gives the hash it gave first when asked again within one build (the hash the build key holds), without looking at the file', () => {
    const path = write('g.json', '{"x": 1}', LONG_AGO);
    const hashes = new FileHashes();
    const first = hashes.of(path);
    write('g.json', '{"x": 22}', LONG_AGO + 60);
    expect(hashes.of(path)).toBe(first);
    expect(new FileHashes(hashes.kept()).of(path), 'the next build reads it again').not.toBe(first);
  });

  it('keeps only the files asked for, in columns the record validates', () => {
    const hashes = new FileHashes();
    hashes.of(write('f.json', '{}', LONG_AGO));
    const kept = hashes.kept();
    expect(kept.paths).toEqual([join(dir, 'f.json')]);
    expect(keptHashes.safeParse(kept).success).toBe(true);
    expect(keptHashes.safeParse({ ...kept, sizes: [] }).success, 'columns of different lengths').toBe(false);
  });
});
