import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHash, type Fingerprint, fingerprint, RACY_MS } from '../../../cli/files/fingerprint.ts';
import { testFolder } from '../../helpers/test-folders.ts';

/** A hash function that records each file content it is given: what was read and hashed. */
function countingHash() {
  const hashed: string[] = [];
  const make = (bytes: Buffer) => {
    hashed.push(bytes.toString('utf8'));
    return contentHash(bytes);
  };
  return { make, hashed };
}

/** Writes `text` to `file` and dates it `ageMs` ago (whole milliseconds, so that a test can put the same time back exactly). */
function write(file: string, text: string, ageMs = 0): Date {
  writeFileSync(file, text);
  const time = new Date(Date.now() - ageMs);
  utimesSync(file, time, time);
  return time;
}

/** Gives `file` back the modification time `time`, as a second write within one tick of a coarse clock would leave it. */
function restoreTime(file: string, time: Date): void {
  utimesSync(file, time, time);
}

describe('the fingerprint rule: is this file unchanged?', () => {
  it('trusts a file found with the size and time it had, modified long before it was read, without reading it again', () => {
    const file = join(testFolder('fingerprint-'), 'de.json');
    const time = write(file, '{"a": 1}', 60_000);
    const { make, hashed } = countingHash();
    const first = fingerprint(file, undefined, make);
    expect(first).toMatchObject({ size: 8, racy: false, value: contentHash(Buffer.from('{"a": 1}')) });
    expect(fingerprint(file, first, make)).toBe(first);
    // Rewritten to the same size with its time put back: size and time vouch for it, so it is not read (as git trusts its index).
    write(file, '{"a": 2}');
    restoreTime(file, time);
    expect(fingerprint(file, first, make)).toBe(first);
    expect(hashed).toEqual(['{"a": 1}']);
  });

  it('reads and hashes again a file with the same size and time when it was modified within the racy window of being read', () => {
    const file = join(testFolder('fingerprint-'), 'de.json');
    write(file, '{"a": 1}', RACY_MS / 4);
    const { make, hashed } = countingHash();
    const first = fingerprint(file, undefined, make);
    expect(first?.racy).toBe(true);
    const second = fingerprint(file, first, make);
    expect(second?.value).toBe(first?.value);
    expect(hashed).toEqual(['{"a": 1}', '{"a": 1}']);
  });

  it('sees a content change that kept the size and the time, through the racy rule (a second save within one clock tick)', () => {
    const file = join(testFolder('fingerprint-'), 'de.json');
    const time = write(file, '{"a": 1}');
    const { make } = countingHash();
    const first = fingerprint(file, undefined, make)!;
    write(file, '{"a": 2}');
    restoreTime(file, time);
    expect(statSync(file)).toMatchObject({ size: first.size, mtimeMs: first.mtimeMs });
    expect(fingerprint(file, first, make)?.value).toBe(contentHash(Buffer.from('{"a": 2}')));
  });

  it('reads a file again when its size changed, even with its time put back', () => {
    const file = join(testFolder('fingerprint-'), 'de.json');
    const time = write(file, '{"a": 1}', 60_000);
    const { make, hashed } = countingHash();
    const first = fingerprint(file, undefined, make)!;
    write(file, '{"a": 10}');
    restoreTime(file, time);
    expect(fingerprint(file, first, make)).toMatchObject({ size: 9, value: contentHash(Buffer.from('{"a": 10}')) });
    expect(hashed).toEqual(['{"a": 1}', '{"a": 10}']);
  });

  it('reads a file again when only its time changed', () => {
    const file = join(testFolder('fingerprint-'), 'de.json');
    write(file, '{"a": 1}', 60_000);
    const { make, hashed } = countingHash();
    const first = fingerprint(file, undefined, make);
    write(file, '{"a": 2}', 30_000);
    expect(fingerprint(file, first, make)?.value).toBe(contentHash(Buffer.from('{"a": 2}')));
    expect(hashed).toEqual(['{"a": 1}', '{"a": 2}']);
  });

  it('answers undefined for a file that does not exist, without calling the hash', () => {
    const { make, hashed } = countingHash();
    const gone: Fingerprint<string> = { size: 1, mtimeMs: 1, racy: false, value: 'x' };
    expect(fingerprint(join(testFolder('fingerprint-'), 'gone.json'), gone, make)).toBeUndefined();
    expect(hashed).toEqual([]);
  });
});
