/**
 * The operator side: configuration, `export`, `erase`, `purge` as functions and through the
 * real `ingest` process on SQLite and on PostgreSQL, and `ingest serve` from an empty folder
 * with SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../ingest/config.ts';
import { OPERATOR_ERRORS } from '../../ingest/operator-errors.ts';
import { contactSchema, newsletterSchema, validate } from '../../ingest/contract/schemas.ts';
import { eraseEmail } from '../../ingest/ops/erase.ts';
import { personAddress as address } from '../../ingest/ops/person-address.ts';
import { csvCell, exportTable } from '../../ingest/ops/export-rows.ts';
import { applyRetention } from '../../ingest/ops/retention.ts';
import { openBackend, openOpsDatabase } from '../../ingest/store/open-backend.ts';
import type { OpsDatabase } from '../../ingest/store/ops-database.ts';
import { BACKENDS, type BackendKind, CONFIRMED, configFor, contact, databaseEnv, eventually, signup, tempDir } from './fixtures.ts';

const BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;
const run = promisify(execFile);
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Rows of every kind on `kind`'s database, some of them old; `env` selects that database for the CLI. */
async function seeded(kind: BackendKind): Promise<{ dir: string; env: Record<string, string>; db: OpsDatabase; count(table: string): Promise<number> }> {
  const temp = tempDir();
  const env = await databaseEnv(kind);
  const backend = await openBackend(configFor(temp.dir, env));
  const store = backend.submissions;
  const old = Date.parse('2022-01-01T00:00:00Z');
  const recent = Date.parse('2025-06-01T00:00:00Z');
  await store.subscribe(valid(newsletterSchema, signup({ name: '=HYPERLINK("http://evil")', email: 'Old@Example.com' })), old, CONFIRMED);
  await store.subscribe(valid(newsletterSchema, signup({ name: 'Ana, "la" Pérez', email: 'ana@example.com' })), recent, CONFIRMED);
  const captcha = { token: 't', answer: 0 };
  const nonce = (value: string, expiresAt: number) => ({ value: `nonce-${value}-00000000001`, expiresAt });
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'ANA@example.com' })), nonce('a', old + 600_000), old);
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'ana@EXAMPLE.com' })), nonce('b', recent + 600_000), recent);
  await store.submitContact(valid(contactSchema, contact({ captcha, email: 'bo@example.com', firstName: 'Bo' })), nonce('c', recent + 600_000), recent);
  await backend.close();
  const db = await openOpsDatabase(configFor(temp.dir, env));
  cleanups.push(temp.remove, () => db.close());
  const count = async (table: string) => Number((await db.all(db.kysely.selectFrom(table as 'outbox').select((eb) => eb.fn.countAll().as('n'))))[0]!.n);
  return { dir: temp.dir, env: { DATA_DIR: temp.dir, ...env }, db, count };
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
      config: { port: 8787, host: '127.0.0.1', trustProxy: false, database: { path: '/srv/app/data/ingest.sqlite' }, mail: { kind: 'file', dir: '/srv/app/data/mail' } },
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

  it('selects PostgreSQL for a postgres:// URL and refuses one without a host or database, without echoing it', () => {
    expect(resolveConfig({ DATABASE_URL: 'postgres://app:pw@db:5432/forms', PG_POOL_MAX: '20' }, '/')).toMatchObject({
      ok: true,
      config: { database: { kind: 'postgres', url: 'postgres://app:pw@db:5432/forms', poolMax: 20 } },
    });
    expect(resolveConfig({ DATABASE_URL: 'postgresql://db/forms' }, '/')).toMatchObject({ ok: true, config: { database: { kind: 'postgres', poolMax: 10 } } });
    const result = resolveConfig({ DATABASE_URL: 'postgres://app:secret@/' }, '/');
    expect(result).toEqual({ ok: false, errors: ['DATABASE_URL must be a URL such as postgres://user:password@db.example.com:5432/forms'] });
  });

  it('refuses a link lifetime or a rate-limit window that the privacy policy does not state (its numbers come from one table)', () => {
    expect(resolveConfig({ CONFIRM_LINK_DAYS: '7', RATE_LIMIT_WINDOW_MS: '30000' }, '/')).toMatchObject({ ok: true, config: { confirmLinkDays: 7 } });
    const result = resolveConfig({ CONFIRM_LINK_DAYS: '14', RATE_LIMIT_WINDOW_MS: '3600000' }, '/');
    expect(result).toEqual({
      ok: false,
      errors: [
        'CONFIRM_LINK_DAYS must be 7, the days the privacy policy and the pages state (change linkDays in ingest/contract/data-facts.ts and rebuild the site to change it) (got "14")',
        'RATE_LIMIT_WINDOW_MS must be a whole number of milliseconds from 1 to 60000 (the privacy policy keeps the counters no longer) (got "3600000")',
      ],
    });
  });

  it('leases outbox rows for 60 s unless OUTBOX_LEASE_MS says otherwise, and refuses a lease under a second', () => {
    expect(resolveConfig({}, '/')).toMatchObject({ ok: true, config: { outboxLeaseMs: 60_000 } });
    expect(resolveConfig({ OUTBOX_LEASE_MS: '3000' }, '/')).toMatchObject({ ok: true, config: { outboxLeaseMs: 3000 } });
    expect(resolveConfig({ OUTBOX_LEASE_MS: '10' }, '/')).toEqual({
      ok: false,
      errors: ['OUTBOX_LEASE_MS must be a whole number of milliseconds from 1000 to 3600000 (got "10")'],
    });
  });

  it('refuses a TRUST_PROXY hop count on a public HOST, where any client could forge X-Forwarded-For', () => {
    for (const HOST of ['0.0.0.0', '::', '192.0.2.10']) {
      const result = resolveConfig({ HOST, TRUST_PROXY: '1' }, '/');
      expect(result).toEqual({
        ok: false,
        errors: [expect.stringMatching(new RegExp(`^TRUST_PROXY must name the proxy addresses .*\\(got "1" with HOST "${HOST}"\\)$`))],
      });
    }
    // On a loopback address only processes on this machine connect: the local proxy.
    for (const HOST of ['127.0.0.1', '::1', 'localhost']) expect(resolveConfig({ HOST, TRUST_PROXY: '2' }, '/')).toMatchObject({ ok: true, config: { trustProxy: 2 } });
  });

  it('refuses TRUST_PROXY values that name no proxy, true included, and accepts addresses and CIDRs', () => {
    for (const value of ['true', 'yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example', '127.0.0.1,']) {
      const result = resolveConfig({ HOST: '0.0.0.0', TRUST_PROXY: value }, '/');
      expect(result, value).toEqual({ ok: false, errors: [`TRUST_PROXY must name the proxy addresses to trust as a comma list of IPs or CIDRs (such as 127.0.0.1 or 172.17.0.1), or be a hop count or false (got ${JSON.stringify(value)})`] });
    }
    expect(resolveConfig({ HOST: '0.0.0.0', TRUST_PROXY: '172.17.0.1, 10.0.0.0/8,fd00::/8' }, '/')).toMatchObject({
      ok: true,
      config: { trustProxy: ['172.17.0.1', '10.0.0.0/8', 'fd00::/8'] },
    });
    expect(resolveConfig({ TRUST_PROXY: 'false' }, '/')).toMatchObject({ ok: true, config: { trustProxy: false } });
  });

  it('regression: refuses a TRUST_PROXY range that trusts every or nearly every address (0.0.0.0/0 was accepted), with one line', () => {
    const everyone = ['0.0.0.0/0', '::/0', '0.0.0.0/1', '128.0.0.0/7', '2000::/3', '::ffff:0:0/96', '::ffff:0.0.0.0/100', '0.0.0.0/0.0.0.0', '10.0.0.1, 0.0.0.0/0'];
    for (const value of everyone) {
      const result = resolveConfig({ HOST: '0.0.0.0', TRUST_PROXY: value }, '/');
      expect(result, value).toEqual({ ok: false, errors: [expect.stringMatching(/^TRUST_PROXY must not trust "[^"]+": a range shorter than \/8 trusts nearly every address, so any client could forge X-Forwarded-For .* \(got ".*"\)$/)] });
    }
    // A /8 and anything narrower is a network someone runs: a private range, a mapped IPv4 /8, a ULA /8.
    for (const value of ['10.0.0.0/8', '10.0.0.0/255.0.0.0', 'fd00::/8', '::ffff:10.0.0.0/104', '2001:db8::/32', '172.17.0.1']) {
      expect(resolveConfig({ HOST: '0.0.0.0', TRUST_PROXY: value }, '/'), value).toMatchObject({ ok: true });
    }
    // A mask with a hole is no mask: refused as no proxy address.
    expect(resolveConfig({ TRUST_PROXY: '10.0.0.0/255.0.255.0' }, '/')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^TRUST_PROXY must name the proxy addresses/)] });
  });

  it('shares a multiple of a /64\'s allowance with each IPv6 /56 and /48 (4 and 16 by default), and caps each form per hour (20 contacts, 40 signups), above what four addresses\' daily caps (5 each) add up to', () => {
    expect(resolveConfig({}, '/')).toMatchObject({
      ok: true,
      config: { rateLimit: { ipv6Factors: { per56: 4, per48: 16 }, hourlyCeilings: { contact: 20, newsletter: 40 }, contactDailyMax: 5, newsletterDailyMax: 5 } },
    });
    const set = resolveConfig({ RATE_LIMIT_IPV6_56_FACTOR: '8', RATE_LIMIT_IPV6_48_FACTOR: '64', RATE_LIMIT_CONTACT_HOURLY_CEILING: '30', RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '100' }, '/');
    expect(set).toMatchObject({ ok: true, config: { rateLimit: { ipv6Factors: { per56: 8, per48: 64 }, hourlyCeilings: { contact: 30, newsletter: 100 } } } });
    expect(resolveConfig({ RATE_LIMIT_IPV6_56_FACTOR: '257' }, '/')).toEqual({
      ok: false,
      errors: ['RATE_LIMIT_IPV6_56_FACTOR must be a whole number from 1 to 256: how many times a /64\'s allowance an IPv6 /56 shares (got "257")'],
    });
    expect(resolveConfig({ RATE_LIMIT_IPV6_56_FACTOR: '8', RATE_LIMIT_IPV6_48_FACTOR: '4' }, '/')).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^RATE_LIMIT_IPV6_48_FACTOR must not be below RATE_LIMIT_IPV6_56_FACTOR.*\(got 4 and 8\)$/)],
    });
    expect(resolveConfig({ RATE_LIMIT_CONTACT_HOURLY_CEILING: '0' }, '/')).toMatchObject({ ok: false });
  });

  it('bounds header, request and idle times and the shutdown drain, and refuses a header limit above the request limit', () => {
    expect(resolveConfig({}, '/')).toMatchObject({
      ok: true,
      config: { timeouts: { headersMs: 10_000, requestMs: 30_000, idleMs: 72_000 }, shutdownDrainMs: 5000 },
    });
    expect(resolveConfig({ HEADERS_TIMEOUT_MS: '0', IDLE_TIMEOUT_MS: 'forever' }, '/')).toEqual({
      ok: false,
      errors: [
        'HEADERS_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000 (got "0")',
        'IDLE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000 (got "forever")',
      ],
    });
    expect(resolveConfig({ HEADERS_TIMEOUT_MS: '40000' }, '/')).toEqual({
      ok: false,
      errors: ['HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS, which covers the headers too (got 40000 and 30000)'],
    });
  });

  it("starts with the operators' guide's container example as written, which trusts only the named proxy", () => {
    const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    const imageEnv = Object.fromEntries(
      [...runtimeStage.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].flatMap((env) => [...env[1]!.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
    );
    const example = /^docker run -d --name ingest (?:.*\\\n)*.*$/m.exec(guide)![0];
    const runEnv = Object.fromEntries([...example.matchAll(/-e (\w+)=('[^']*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
    expect(example).toMatch(/-p 127\.0\.0\.1:8787:8787/);
    const result = resolveConfig({ ...imageEnv, ...runEnv }, '/app');
    expect(result.ok ? [] : result.errors).toEqual([]);
    expect(result).toMatchObject({ ok: true, config: { host: '0.0.0.0', trustProxy: [expect.any(String)] } });
  });

  it('stops the real CLI with one line naming the variable and exit code 2', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const result = await ingest(['migrate'], { DATA_DIR: temp.dir, LOG_LEVEL: 'loud' });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('ingest: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")');
  });

  it('regression: stops `ingest serve` with TRUST_PROXY=0.0.0.0/0 before it listens, with one line and exit code 2', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const result = await ingest(['serve'], { DATA_DIR: temp.dir, PORT: '0', TRUST_PROXY: '0.0.0.0/0' });
    expect(result.code).toBe(2);
    // The one line about the variable, then the catalogue's line every configuration error ends with.
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^ingest: TRUST_PROXY must not trust "0\.0\.0\.0\/0": .* \(got "0\.0\.0\.0\/0"\)$/),
      `ingest: ${OPERATOR_ERRORS.config_invalid.message}`,
    ]);
    expect(result.stdout).toBe('');
    expect(readdirSync(temp.dir)).toEqual([]);
  });
});

describe.each(BACKENDS)('export on %s', (kind) => {
  it('writes CSV with a header, quoting and formula guard, and JSON Lines, filtered by --since', async () => {
    const { db } = await seeded(kind);
    const csv = await exportTable(db, { table: 'newsletter', format: 'csv' });
    const lines = csv.text.trimEnd().split('\r\n');
    expect(csv.rows).toBe(2);
    expect(lines[0]).toBe('"id","name","email","email_lower","privacy_consent","marketing_consent","lang","privacy_version","consent_at","created_at","status","confirmed_at","consent_hash","expires_at","confirm_mails","confirm_mail_day","last_confirm_mail_at"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain('"Ana, ""la"" Pérez"');
    const jsonl = await exportTable(db, { table: 'contacts', format: 'jsonl', since: Date.parse('2025-01-01') });
    const rows = jsonl.text.trimEnd().split('\n').map((line) => JSON.parse(line) as { email: string });
    expect(rows.map((row) => row.email)).toEqual(['ana@example.com', 'bo@example.com']);
    expect(csvCell('+34 600')).toBe(`"'+34 600"`);
    expect(csvCell(12)).toBe('"12"');
  });

  it('runs through the real CLI', async () => {
    const { env } = await seeded(kind);
    const result = await ingest(['export', '--table', 'newsletter', '--format', 'jsonl', '--since', '2025-01-01'], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).email)).toEqual(['ana@example.com']);
    expect(result.stderr).toContain('exported 1 newsletter row(s) as jsonl');
    const bad = await ingest(['export', '--table', 'newsletter', '--since', 'yesterday-ish'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday-ish" is not a date');
  });
});

describe.each(BACKENDS)('erase on %s', (kind) => {
  it('removes every row about an address in any case, outbox included, and reports the counts', async () => {
    const { db, count } = await seeded(kind);
    expect((await eraseEmail(db, address('  ANA@example.COM '))).rows).toEqual({ newsletter: 1, contacts: 2, outbox: 2 });
    expect(await count('contacts')).toBe(1);
    expect(await count('outbox')).toBe(1);
    expect(await count('newsletter')).toBe(1);
    const text = JSON.stringify(await db.all(db.kysely.selectFrom('contacts').selectAll())) + JSON.stringify(await db.all(db.kysely.selectFrom('newsletter').selectAll()));
    expect(text.toLowerCase()).not.toContain('ana@example.com');
    expect((await eraseEmail(db, address('ana@example.com'))).rows).toEqual({ newsletter: 0, contacts: 0, outbox: 0 });
  });

  it('runs through the real CLI', async () => {
    const { env, count } = await seeded(kind);
    const result = await ingest(['erase', '--email', 'Bo@Example.com'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('erased Bo@example.com: newsletter 0, contacts 1, outbox 1, webhook records 0\n');
    expect(await count('contacts')).toBe(2);
  });
});

describe.each(BACKENDS)('purge on %s', (kind) => {
  it('applies the retention table: old contacts, old consent events and expired nonces go, confirmed subscriptions stay whatever their age', async () => {
    const { db, count } = await seeded(kind);
    const now = Date.parse('2025-06-02T00:00:00Z');
    // Nonces b and c expired on 2025-06-01; nonce a was already cleared when b was stored. The 2022 subscription's two events are over 3 years old.
    const expected = { pending_subscriptions: 0, signup_requests: 0, unverified_contacts: 0, contacts: 1, confirmation_mail_rows: 0, mail_caps: 0, consent_events: 2, captcha_nonces: 2, webhook_records: 0, webhook_failed: 0, mail_files: 0 };
    expect(await applyRetention(db, { now, linkDays: 7, mailDir: null, dryRun: true })).toEqual(expected);
    expect(await count('contacts')).toBe(3);
    expect(await applyRetention(db, { now, linkDays: 7, mailDir: null })).toEqual(expected);
    expect(await count('newsletter')).toBe(2);
    expect(await count('contacts')).toBe(2);
    expect(await count('outbox')).toBe(2);
    expect(await applyRetention(db, { now, linkDays: 7, mailDir: null })).toEqual({ ...expected, contacts: 0, consent_events: 0, captcha_nonces: 0 });
  });

  it('runs `ingest migrate`, `ingest purge --dry-run` and `ingest purge` through the real CLI', async () => {
    const { env, count } = await seeded(kind);
    const migrate = await ingest(['migrate'], env);
    expect(migrate.code).toBe(0);
    expect(migrate.stderr).toMatch(/is at migration \S+/);
    const dry = await ingest(['purge', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would delete +1 +contact messages and their sales-mail rows \(kept 730 days after receipt\)/);
    expect(dry.stdout).toContain('kept: confirmed newsletter subscriptions (until unsubscribe or erase; never by age)');
    expect(await count('contacts')).toBe(3);
    const purge = await ingest(['purge'], env);
    expect(purge.code).toBe(0);
    expect(purge.stdout).toMatch(/deleted +1 +contact messages/);
    expect(await count('contacts')).toBe(2);
    expect(await count('newsletter')).toBe(2);
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
