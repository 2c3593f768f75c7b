import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileMemo } from '../../../cli/files/file-memo.ts';
import { RACY_MS } from '../../../cli/files/fingerprint.ts';
import { testFolder } from '../../helpers/test-folders.ts';

/** A memo that counts how often it reads a file. */
function countingMemo() {
  const reads: string[] = [];
  const memo = fileMemo((bytes) => {
    reads.push(bytes.toString('utf8'));
    return bytes.toString('utf8').toUpperCase();
  });
  return { memo, reads };
}

/** Writes `text` to `file` and dates it `ageMs` ago. */
function writeAged(file: string, text: string, ageMs: number): void {
  writeFileSync(file, text);
  const time = new Date(Date.now() - ageMs);
  utimesSync(file, time, time);
}

describe('fileMemo', () => {
  it('reads a file once while it keeps its size and time', () => {
    const file = join(testFolder('memo-'), 'a.ts');
    writeAged(file, 'one', 60_000);
    const { memo, reads } = countingMemo();
    expect(memo(file)).toBe('ONE');
    expect(memo(file)).toBe('ONE');
    expect(reads).toEqual(['one']);
  });

  it('reads it again once it changed, even to the same size', () => {
    const file = join(testFolder('memo-'), 'a.ts');
    writeAged(file, 'one', 60_000);
    const { memo, reads } = countingMemo();
    memo(file);
    writeAged(file, 'two', 30_000);
    expect(memo(file)).toBe('TWO');
    expect(reads).toEqual(['one', 'two']);
  });

  it('does not keep a file changed less than RACY_MS ago: another change within the same clock tick would go unseen', () => {
    const file = join(testFolder('memo-'), 'a.ts');
    writeAged(file, 'one', RACY_MS / 4);
    const { memo, reads } = countingMemo();
    memo(file);
    memo(file);
    expect(reads).toEqual(['one', 'one']);
  });

  it('answers undefined for a file that does not exist', () => {
    const { memo, reads } = countingMemo();
    expect(memo(join(testFolder('memo-'), 'gone.ts'))).toBeUndefined();
    expect(reads).toEqual([]);
  });
});
