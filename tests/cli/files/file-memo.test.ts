import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileMemo } from '../../../cli/files/file-memo.ts';
import { RACY_MS } from '../../../cli/files/fingerprint.ts';
import { CACHE_DIR } from '../../../cli/paths.ts';
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

/** A script run as its own process: a memo kept under `name` asked twice for `file`, the file changed between when `change` is set; prints both answers and the texts it read. */
const PROCESS_SCRIPT = `
import { utimesSync, writeFileSync } from 'node:fs';
import { fileMemo, lookOnce } from ${JSON.stringify(new URL('../../../cli/files/file-memo.ts', import.meta.url).href)};
const [name, file, mode] = process.argv.slice(2);
if (mode.includes('once')) lookOnce();
const reads = [];
const memo = fileMemo((bytes) => (reads.push(bytes.toString('utf8')), bytes.toString('utf8').toUpperCase()), { name, isValue: (value) => typeof value === 'string' });
const first = memo(file);
if (mode.includes('change')) {
  writeFileSync(file, 'changed meanwhile');
  utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
}
console.log(JSON.stringify({ first, second: memo(file), reads }));
`;

describe('fileMemo kept between processes', () => {
  const names: string[] = [];
  afterEach(() => {
    for (const name of names.splice(0)) rmSync(join(CACHE_DIR, `memo-${name}.json`), { force: true });
  });

  /** Runs the script above in a new process (through tsx, as the sources run in development). */
  function inProcess(name: string, file: string, mode = ''): { first: string; second: string; reads: string[] } {
    const script = join(testFolder('memo-process-'), 'ask.mts');
    writeFileSync(script, PROCESS_SCRIPT);
    return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script, name, file, mode || 'plain'], { encoding: 'utf8' })) as never;
  }

  /** A memo name of this test's (its file removed after it) and a source file saying "one", written a minute ago. */
  function memoAndFile(kind: string): { name: string; file: string } {
    const name = `test-${process.pid}-${kind}`;
    names.push(name);
    const file = join(testFolder('memo-'), 'a.ts');
    writeAged(file, 'one', 60_000);
    return { name, file };
  }

  it('starts from what the last process computed, and reads only a file changed since', () => {
    const { name, file } = memoAndFile('kept');
    expect(inProcess(name, file)).toEqual({ first: 'ONE', second: 'ONE', reads: ['one'] });
    expect(inProcess(name, file)).toEqual({ first: 'ONE', second: 'ONE', reads: [] });
    writeAged(file, 'two', 30_000);
    expect(inProcess(name, file)).toEqual({ first: 'TWO', second: 'TWO', reads: ['two'] });
  }, 60_000);

  it('reads every file when its kept values cannot be read', () => {
    const { name, file } = memoAndFile('broken');
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(join(CACHE_DIR, `memo-${name}.json`), '{"entries": [[1, 2');
    expect(inProcess(name, file)).toEqual({ first: 'ONE', second: 'ONE', reads: ['one'] });
  }, 60_000);

  it('looks at a file each time it is asked, unless the process builds once (lookOnce): then the first answer stands', () => {
    const { name, file } = memoAndFile('once');
    expect(inProcess(name, file, 'change')).toEqual({ first: 'ONE', second: 'CHANGED MEANWHILE', reads: ['one', 'changed meanwhile'] });
    writeAged(file, 'one', 60_000);
    expect(inProcess(name, file, 'change once')).toEqual({ first: 'ONE', second: 'ONE', reads: ['one'] });
  }, 60_000);
});
