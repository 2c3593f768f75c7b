/**
 * The compiled `ingest` as operators run it (`node ingest/bin.js`, which runs build/ingest/, see
 * compile.js): a crash's stack trace names the TypeScript file and line, and the commands that
 * need no server load no server: `ingest --help` and `ingest export` on SQLite read none of
 * Fastify, the PostgreSQL driver or the mailer.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holds, moduleLog, packageFilesIn } from '../helpers/loaded-modules.ts';
import { tempDir } from './fixtures.ts';

const BIN = fileURLToPath(new URL('../../ingest/bin.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** A folder with a SQLite configuration for the CLI, and the log of what the process loads. */
function workspace(): { dir: string; env: NodeJS.ProcessEnv; hooks: string; loaded(): string[] } {
  const temp = tempDir();
  cleanups.push(temp.remove);
  const env = { ...process.env, DATA_DIR: temp.dir, DATABASE_URL: `sqlite:${join(temp.dir, 'ingest.sqlite')}` };
  return { dir: temp.dir, env, ...moduleLog(temp.dir) };
}

// nodemailer's mail building and sending (in lib/ or in its ES module build, dist/esm/).
const MAILER = /^nodemailer\/(lib|dist\/esm)\/(mailer|smtp-transport)\//;

describe('the compiled ingest', () => {
  // Compiled once here, so the processes below time nothing but themselves.
  beforeAll(() => run(process.execPath, [join(ROOT, 'compile.js'), 'ingest']), 60_000);

  it('names the TypeScript file and line in the stack trace of a crash', async () => {
    const { dir, env } = workspace();
    writeFileSync(join(dir, 'a-file'), '');
    // --out under a file: mkdir fails with ENOTDIR, an error no command expects, so node prints its stack.
    const failure = await run(process.execPath, [BIN, 'preview-mail', '--out', join(dir, 'a-file', 'mails')], { env }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    const source = 'ingest/mail/messages/preview-mail.ts';
    const line = readFileSync(join(ROOT, source), 'utf8').split('\n').findIndex((text) => /^\s*mkdirSync\(/.test(text)) + 1;
    expect(line).toBeGreaterThan(0);
    expect((failure as { stderr: string }).stderr).toContain(`at writeMailPreviews (${join(ROOT, source)}:${line}:`);
  });

  it('loads neither Fastify nor the PostgreSQL driver nor the mailer for --help and for an export on SQLite', async () => {
    const help = workspace();
    const { stdout } = await run(process.execPath, ['--import', help.hooks, BIN, '--help'], { env: help.env });
    expect(stdout).toContain('Usage: ingest');
    const exported = workspace();
    const csv = await run(process.execPath, ['--import', exported.hooks, BIN, 'export', '--table', 'contacts'], { env: exported.env });
    expect(csv.stderr).toContain('exported 0 contacts row(s) as csv');

    for (const loaded of [help.loaded(), exported.loaded()]) {
      expect(loaded.some((url) => url.includes('/build/ingest/'))).toBe(true);
      const files = packageFilesIn(loaded);
      expect(holds(files, /^commander\//)).toBe(true);
      // The export reads nodemailer's address parser (to find the mail files about an address), not its transports.
      for (const server of [/^fastify\//, /^pino\//, /^pg\//, /^pg-pool\//, MAILER]) expect(holds(files, server), String(server)).toBe(false);
    }
    expect(holds(packageFilesIn(exported.loaded()), /^better-sqlite3\//)).toBe(true);
  });

  it('loads Fastify for serve (so the check above can see it)', async () => {
    const serve = workspace();
    const child = spawn(process.execPath, ['--import', serve.hooks, BIN, 'serve'], { env: { ...serve.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => child.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ingest listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`ingest serve exited (${code}) before listening: ${output}`)));
    });
    const files = packageFilesIn(serve.loaded());
    for (const server of [/^fastify\//, /^pino\//, MAILER]) expect(holds(files, server), String(server)).toBe(true);
  });
});
