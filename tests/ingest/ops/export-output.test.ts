/**
 * `ingest export --output FILE` writes personal data: a new file readable by its owner only,
 * whatever the umask, and never an existing file unless `--force`, which replaces it atomically.
 * The real `ingest` process on a SQLite database in a fresh `DATA_DIR`.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures.ts';
import { runIngest } from '../../helpers/ingest-cli.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Runs `ingest ARGS` under `umask` with its data in `dir`; never rejects. */
function ingest(dir: string, umask: string, args: string[]) {
  return runIngest(args, { DATA_DIR: join(dir, 'data') }, { cwd: dir, umask });
}

function folder(): string {
  const temp = tempDir();
  cleanups.push(temp.remove);
  return temp.dir;
}

describe('ingest export --output', () => {
  it('regression: the export of a person was written world-readable (umask 022); it is 0600 under any umask', async () => {
    const dir = folder();
    for (const [umask, file] of [['022', 'ana.json'], ['000', 'ana-0.json'], ['277', 'ana-277.json']] as const) {
      const run = await ingest(dir, umask, ['export', '--email', 'ana@example.com', '--output', file]);
      expect(run.code, umask).toBe(0);
      expect(mode(join(dir, file)), umask).toBe('600');
      expect(JSON.parse(readFileSync(join(dir, file), 'utf8'))).toMatchObject({ email: 'ana@example.com', newsletter: [] });
    }
    const table = await ingest(dir, '022', ['export', '--table', 'newsletter', '--output', 'newsletter.csv']);
    expect(table.code).toBe(0);
    expect(mode(join(dir, 'newsletter.csv'))).toBe('600');
  }, 60_000);

  it('regression: an existing file was overwritten in place; it is refused with exit 2 and left as it was', async () => {
    const dir = folder();
    const file = join(dir, 'keep.json');
    writeFileSync(file, 'the operator’s own file\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const run = await ingest(dir, '022', ['export', '--email', 'ana@example.com', '--output', 'keep.json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe('ingest: --output "keep.json" exists already; name a new file, or add --force to replace it');
    expect(readFileSync(file, 'utf8')).toBe('the operator’s own file\n');
    expect(mode(file)).toBe('644');
  }, 30_000);

  it('replaces an existing file with --force: a new 0600 file, never written through the old one', async () => {
    const dir = folder();
    const file = join(dir, 'ana.json');
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o644);
    // A second name for the old file: writing in place would show the export there too.
    linkSync(file, join(dir, 'other-name.json'));
    const run = await ingest(dir, '022', ['export', '--email', 'ana@example.com', '--output', 'ana.json', '--force']);
    expect(run.code).toBe(0);
    expect(mode(file)).toBe('600');
    expect(JSON.parse(readFileSync(file, 'utf8')).email).toBe('ana@example.com');
    expect(readFileSync(join(dir, 'other-name.json'), 'utf8')).toBe('old\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 30_000);

  it('names a folder that does not exist, or a folder given as the file, in one line with exit 2', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'a-folder'));
    const missing = await ingest(dir, '022', ['export', '--email', 'ana@example.com', '--output', 'nowhere/ana.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('ingest: --output "nowhere/ana.json": its folder does not exist');
    const folderAsFile = await ingest(dir, '022', ['export', '--email', 'ana@example.com', '--output', 'a-folder', '--force']);
    expect(folderAsFile.code).toBe(2);
    expect(folderAsFile.stderr.split('\n')[0]).toBe('ingest: --output "a-folder" is a folder; name a file');
    expect(readdirSync(join(dir, 'a-folder'))).toEqual([]);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  }, 30_000);
});
