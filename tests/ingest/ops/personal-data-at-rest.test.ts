/**
 * Personal data at rest: after `ingest erase` no byte of the person is left in the database file,
 * its WAL or the mail folder, and everything the service keeps is readable by its owner only.
 * Real SQLite files, the real file mail sink and the real `ingest` process.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { contactSchema, newsletterSchema, validate } from '../../../ingest/contract/schemas.ts';
import { erasePerson } from '../../../ingest/ops/erase.ts';
import { sqliteOps } from '../../../ingest/store/sqlite/sqlite-ops-database.ts';
import { personAddress } from '../../../ingest/ops/person-address.ts';
import { startService } from '../../../ingest/server.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { CONFIRMED, configFor, contact, eventually, migratedDb, postJson, signup, solvedCaptcha, tempDir } from '../fixtures.ts';

const BIN = new URL('../../../ingest/bin.js', import.meta.url).pathname;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function valid<S extends Parameters<typeof validate>[0]>(schema: S, body: unknown) {
  const result = validate(schema, body);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data as never;
}

// What identifies the erased person, as it would sit in the file's bytes (compared in lower case).
const PERSON = { firstName: 'Zoltán', lastName: 'Quixbyte', email: 'Zoltan.Quixbyte@Example.com', phone: '+34 699 731 731', message: 'Please call me about the QX-9731-MIGRATION project.' };
const TRACES = ['quixbyte', 'zoltan.quixbyte@example.com', 'qx-9731-migration', '699 731 731'];

/** The traces of the person found in `file`'s raw bytes (none if the file does not exist). */
function tracesIn(file: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'latin1').toLowerCase();
  return TRACES.filter((trace) => text.includes(trace));
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('ingest erase, at rest', () => {
  it('regression: after erase, the database file and its WAL hold no copy of the name, email or message', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const db = await migratedDb(temp.dir);
    const store = await openSubmissionStore(db, {});
    cleanups.push(() => db.close(), () => store.close());
    const now = Date.parse('2025-06-01T00:00:00Z');
    const captcha = { token: 't', answer: 0 };
    await store.subscribe(valid(newsletterSchema, signup({ name: `${PERSON.firstName} ${PERSON.lastName}`, email: PERSON.email })), now, CONFIRMED);
    // 40 messages of the person between other people's, so freed space sits inside pages that stay in use.
    for (let i = 0; i < 40; i++) {
      const nonce = (n: string) => ({ value: `nonce-${n}-${i}-000000000001`, expiresAt: now + 600_000 });
      await store.submitContact(valid(contactSchema, contact({ ...PERSON, captcha })), nonce('p'), now + i);
      await store.submitContact(valid(contactSchema, contact({ captcha, email: `other${i}@example.com`, lastName: 'Other' })), nonce('o'), now + i);
      await store.subscribe(valid(newsletterSchema, signup({ email: `reader${i}@example.com` })), now + i, CONFIRMED);
    }
    const path = join(temp.dir, 'ingest.sqlite');
    db.raw.pragma('wal_checkpoint(PASSIVE)'); // some copies in the main file, some still in the WAL
    expect(tracesIn(path).length + tracesIn(`${path}-wal`).length).toBeGreaterThan(0);

    const erased = await erasePerson(sqliteOps(db), personAddress(PERSON.email.toUpperCase()), join(temp.dir, 'mail'));

    expect(erased.rows).toEqual({ newsletter: 1, contacts: 40, outbox: 40 });
    expect(erased.leftover).toBeNull();
    expect({ database: tracesIn(path), wal: tracesIn(`${path}-wal`) }).toEqual({ database: [], wal: [] });
    expect(readFileSync(path, 'latin1')).toContain('other39@example.com');
  });

  it('regression: erase removes the .eml files of the erased person and reports how many', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const service = await startService(configFor(temp.dir));
    cleanups.push(() => service.close());
    for (const body of [contact({ ...PERSON }), contact({ ...PERSON, email: PERSON.email.toLowerCase() }), contact({ email: 'bo@example.com', firstName: 'Bo' })]) {
      const res = await postJson(service.app, '/api/contact', { ...body, captcha: await solvedCaptcha(service.app) });
      expect(res.statusCode).toBe(201);
    }
    const mailDir = join(temp.dir, 'mail');
    await eventually(() => existsSync(mailDir) && readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length === 3);
    await service.close();

    const result = await promisify(execFile)(process.execPath, [BIN, 'erase', '--email', 'zoltan.quixbyte@EXAMPLE.com'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: temp.dir },
    });

    expect(result.stdout).toBe('erased zoltan.quixbyte@example.com: newsletter 0, contacts 2, outbox 2, webhook records 0\n');
    expect(result.stderr).toMatch(/^removed 2 mail file\(s\) about the address\n {2}\S+\.eml\n {2}\S+\.eml\n$/);
    const left = readdirSync(mailDir);
    expect(left).toHaveLength(1);
    expect(tracesIn(join(mailDir, left[0]!))).toEqual([]);
    expect(readFileSync(join(mailDir, left[0]!), 'utf8')).toContain('bo@example.com');
  });
});

describe('ingest serve, at rest', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('regression: the data folder, database, WAL, captcha secret and mail files are owner-only under umask 022', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    child = spawn('sh', ['-c', `umask 022 && exec "${process.execPath}" "${BIN}" serve`], {
      cwd: temp.dir,
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', CAPTCHA_MIN_FILL_MS: '0' },
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await eventually(() => output.includes('ingest listening'), 20_000);
    const base = `http://127.0.0.1:${port}`;
    const challenge = (await (await fetch(`${base}/api/captcha`)).json()) as { a: number; b: number; token: string };
    const res = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...contact(), captcha: { token: challenge.token, answer: challenge.a + challenge.b } }),
    });
    expect(res.status).toBe(201);
    const mailDir = join(dataDir, 'mail');
    await eventually(() => existsSync(mailDir) && readdirSync(mailDir).some((name) => name.endsWith('.eml')));

    const db = join(dataDir, 'ingest.sqlite');
    const eml = join(mailDir, readdirSync(mailDir).find((name) => name.endsWith('.eml'))!);
    const modes = Object.fromEntries(
      [dataDir, mailDir, db, `${db}-wal`, `${db}-shm`, join(dataDir, 'captcha-secret'), eml].map((path) => [path.slice(temp.dir.length), mode(path)]),
    );
    expect(modes).toEqual({
      '/data': '700',
      '/data/mail': '700',
      '/data/ingest.sqlite': '600',
      '/data/ingest.sqlite-wal': '600',
      '/data/ingest.sqlite-shm': '600',
      '/data/captcha-secret': '600',
      [eml.slice(temp.dir.length)]: '600',
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
