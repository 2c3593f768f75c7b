/**
 * The operator side: configuration, `export`, `erase`, `purge` as functions and through the
 * real `ingest` process, and `ingest serve` from an empty folder with SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../ingest/config.ts';
import { contactSchema, newsletterSchema, validate } from '../../ingest/contract/schemas.ts';
import { eraseEmail } from '../../ingest/ops/erase.ts';
import { csvCell, exportTable } from '../../ingest/ops/export-rows.ts';
import { parseAge, purgeOlderThan } from '../../ingest/ops/purge.ts';
import type { SqliteDatabase } from '../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../ingest/store/sqlite/sqlite-submission-store.ts';
import { contact, count, eventually, migratedDb, signup, tempDir } from './fixtures.ts';

const BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;
const run = promisify(execFile);
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function seeded(): Promise<{ dir: string; db: SqliteDatabase }> {
  const temp = tempDir();
  const db = await migratedDb(temp.dir);
  cleanups.push(temp.remove, () => db.close());
  const store = await openSubmissionStore(db, { privacyVersion: '2025-01-12' });
  const old = Date.parse('2022-01-01T00:00:00Z');
  const recent = Date.parse('2025-06-01T00:00:00Z');
  await store.subscribe(valid(newsletterSchema, signup({ name: '=HYPERLINK("http://evil")', email: 'Old@Example.com' })), old);
  await store.subscribe(valid(newsletterSchema, signup({ name: 'Ana, "la" Pérez', email: 'ana@example.com' })), recent);
  const captcha = { token: 't', answer: 0 };
  const nonce = (value: string, expiresAt: number) => ({ value: `nonce-${value}-00000000001`, expiresAt });
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'ANA@example.com' })), nonce('a', old + 600_000), old);
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'ana@EXAMPLE.com' })), nonce('b', recent + 600_000), recent);
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'bo@example.com', firstName: 'Bo' })), nonce('c', recent + 600_000), recent);
  await store.close();
  return { dir: temp.dir, db };
}

function valid<S extends Parameters<typeof validate>[0]>(schema: S, body: unknown) {
  const result = validate(schema, body);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data as never;
}

function ingest(args: string[], env: Record<string, string>, cwd?: string) {
  return run(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: cwd ?? process.cwd() }).then(
    (out) => ({ code: 0, ...out }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('configuration', () => {
  it('works with no variables at all', () => {
    const result = resolveConfig({}, '/srv/app');
    expect(result).toMatchObject({
      ok: true,
      config: { port: 8787, host: '0.0.0.0', database: { path: '/srv/app/data/ingest.sqlite' }, mail: { kind: 'file', dir: '/srv/app/data/mail' } },
    });
  });

  it('names each bad variable and what it expects, without echoing secrets', () => {
    const result = resolveConfig({ PORT: '80a', SMTP_URL: 'http://user:hunter2@x', ALLOWED_ORIGINS: 'https://ok.example,https://bad.example/path' }, '/');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(3);
    expect(result.errors[0]).toBe('PORT must be a whole number from 0 to 65535 (got "80a")');
    expect(result.errors[1]).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(result.errors.join()).not.toContain('hunter2');
    expect(result.errors[2]).toMatch(/^ALLOWED_ORIGINS must be a comma-separated list of origins/);
  });

  it('rejects PostgreSQL URLs with a clear message', () => {
    const result = resolveConfig({ DATABASE_URL: 'postgres://app@db/forms' }, '/');
    expect(result).toEqual({ ok: false, errors: [expect.stringMatching(/^DATABASE_URL points at PostgreSQL, which this build does not support yet/)] });
  });

  it('stops the real CLI with one line naming the variable and exit code 2', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const result = await ingest(['migrate'], { DATA_DIR: temp.dir, LOG_LEVEL: 'loud' });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('ingest: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")');
  });
});

describe('export', () => {
  it('writes CSV with a header, quoting and formula guard, and JSON Lines, filtered by --since', async () => {
    const { db } = await seeded();
    const csv = exportTable(db, { table: 'newsletter', format: 'csv' });
    const lines = csv.text.trimEnd().split('\r\n');
    expect(csv.rows).toBe(2);
    expect(lines[0]).toBe('id,name,email,email_lower,privacy_consent,marketing_consent,lang,privacy_version,consent_at,created_at');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain('"Ana, ""la"" Pérez"');
    const jsonl = exportTable(db, { table: 'contacts', format: 'jsonl', since: Date.parse('2025-01-01') });
    const rows = jsonl.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(rows.map((row) => row.email)).toEqual(['ana@example.com', 'bo@example.com']);
    expect(csvCell('+34 600')).toBe("'+34 600");
    expect(csvCell(12)).toBe('12');
  });

  it('runs through the real CLI', async () => {
    const { dir } = await seeded();
    const result = await ingest(['export', '--table', 'newsletter', '--format', 'jsonl', '--since', '2025-01-01'], { DATA_DIR: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).email)).toEqual(['ana@example.com']);
    expect(result.stderr).toContain('exported 1 newsletter row(s) as jsonl');
    const bad = await ingest(['export', '--table', 'newsletter', '--since', 'yesterday-ish'], { DATA_DIR: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday-ish" is not a date');
  });
});

describe('erase', () => {
  it('removes every row about an address in any case, outbox included, and reports the counts', async () => {
    const { db } = await seeded();
    expect(eraseEmail(db, '  ANA@example.COM ')).toEqual({ newsletter: 1, contacts: 2, outbox: 2 });
    expect(count(db, 'contacts')).toBe(1);
    expect(count(db, 'outbox')).toBe(1);
    expect(count(db, 'newsletter')).toBe(1);
    const text = JSON.stringify(db.raw.prepare('SELECT * FROM contacts').all()) + JSON.stringify(db.raw.prepare('SELECT * FROM newsletter').all());
    expect(text.toLowerCase()).not.toContain('ana@example.com');
    expect(eraseEmail(db, 'ana@example.com')).toEqual({ newsletter: 0, contacts: 0, outbox: 0 });
  });

  it('runs through the real CLI', async () => {
    const { dir, db } = await seeded();
    const result = await ingest(['erase', '--email', 'Bo@Example.com'], { DATA_DIR: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('erased Bo@Example.com: newsletter 0, contacts 1, outbox 1\n');
    expect(count(db, 'contacts')).toBe(2);
  });
});

describe('purge', () => {
  it('deletes rows older than the age, their outbox rows and expired nonces', async () => {
    const { db } = await seeded();
    const now = Date.parse('2025-06-02T00:00:00Z');
    // Nonces b and c expired on 2025-06-01; nonce a was already cleared when b was stored.
    expect(purgeOlderThan(db, now - parseAge('730d')!, now)).toEqual({ newsletter: 1, contacts: 1, outbox: 1, captcha_nonces: 2 });
    expect(count(db, 'newsletter')).toBe(1);
    expect(count(db, 'contacts')).toBe(2);
    expect(purgeOlderThan(db, now - parseAge('730d')!, now)).toEqual({ newsletter: 0, contacts: 0, outbox: 0, captcha_nonces: 0 });
  });

  it('parses ages in days only', () => {
    expect(parseAge('730d')).toBe(730 * 86_400_000);
    expect(['730', '2y', '-1d', 'd', ''].map(parseAge)).toEqual([null, null, null, null, null]);
  });
});

describe('ingest serve', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('starts in an empty folder with no variables, stores a signup, and exits 0 on SIGTERM', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    child = spawn(process.execPath, [BIN, 'serve'], { cwd: temp.dir, env: { PATH: process.env.PATH ?? '', PORT: String(port) } });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await eventually(() => output.includes('ingest listening'), 20_000);
    const res = await fetch(`http://127.0.0.1:${port}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signup()),
    });
    expect(res.status).toBe(201);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    expect(readdirSync(join(temp.dir, 'data')).sort()).toEqual(expect.arrayContaining(['captcha-secret', 'ingest.sqlite']));
    expect(existsSync(join(temp.dir, 'data', 'ingest.sqlite'))).toBe(true);
  });
});
