/**
 * Real local parts for the ingest tests: a migrated SQLite file in a temp folder or a schema of
 * its own in the run's PostgreSQL cluster (`postgres-setup.ts`), the app built on it with captured
 * logs, and valid request bodies (the SMTP peer is `tests/helpers/smtp-peer.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp, type ConsentDeps } from '../../ingest/http/app.ts';
import { consentSetup, type ConsentSetupOptions } from '../../ingest/consent-setup.ts';
import { loadSiteContent, type SiteContent } from '../../ingest/site-content.ts';
import type { OpsDatabase } from '../../ingest/store/ops-database.ts';
import { sqliteOps } from '../../ingest/store/sqlite/sqlite-ops-database.ts';
import { type Clock, systemClock } from '../../ingest/clock.ts';
import { type IngestConfig, resolveConfig } from '../../ingest/config.ts';
import { loggerOptions } from '../../ingest/http/logger.ts';
import { type ServiceMetrics, serviceMetrics } from '../../ingest/http/metrics.ts';
import { migrateToLatest } from '../../ingest/store/migrations.ts';
import { openSqlite, type SqliteDatabase } from '../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { SignupTerms, SubmissionStore } from '../../ingest/store/submission-store.ts';
import type { StoreBackend } from '../../ingest/store/backend.ts';
import { type BackendOptions, openBackend } from '../../ingest/store/open-backend.ts';

/** A database the service can run on. */
export type BackendKind = 'sqlite' | 'postgres';

/** The backends the suites that go through the store interfaces run on: SQLite, and PostgreSQL when the run has a cluster. */
export const BACKENDS: readonly BackendKind[] = inject('postgresUrl') === null ? ['sqlite'] : ['sqlite', 'postgres'];

/** A URL to an empty schema of its own in the run's PostgreSQL cluster (its search_path names it). */
export async function freshPostgresUrl(): Promise<string> {
  const base = inject('postgresUrl');
  if (base === null) throw new Error('no PostgreSQL cluster in this run');
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  return `${base}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** The environment that selects `backend`: nothing for SQLite (a file in DATA_DIR), a fresh schema's URL for PostgreSQL. */
export async function databaseEnv(backend: BackendKind): Promise<Record<string, string>> {
  return backend === 'sqlite' ? {} : { DATABASE_URL: await freshPostgresUrl() };
}

/** Signup terms of a confirmed (single opt-in) subscription, for tests that store signups directly. */
export const CONFIRMED: SignupTerms = { status: 'confirmed', consentHash: 'test-consent-hash', privacyVersion: '2025-01-12' };

/** The site's own content (`content/`), as the service reads it. */
export const SITE_CONTENT: SiteContent = loadSiteContent(new URL('../../content', import.meta.url).pathname);

/** The public site the tests' links point to. */
export const TEST_SITE_URL = 'https://site.test';

/** The newsletter's consent parts on `consentDb` (double opt-in unless `options` say otherwise), for `buildApp` and tests. */
export function testNewsletter(consentDb: OpsDatabase, options: Partial<ConsentSetupOptions> = {}): ReturnType<typeof consentSetup> & ConsentDeps {
  const setup = consentSetup({
    content: SITE_CONTENT,
    secret: SECRET,
    consentDb,
    optIn: 'double',
    linkDays: 7,
    privacyVersion: null,
    siteUrl: TEST_SITE_URL,
    apiUrl: null,
    from: 'forms@example.com',
    ...options,
  });
  return { ...setup, onMailQueued: () => {} };
}

/** Runs `text` on the backend's database and returns its rows (counts as numbers, as SQLite gives them). */
export async function rowsOf(backend: StoreBackend, text: string): Promise<Array<Record<string, unknown>>> {
  if (backend.kind === 'sqlite') {
    const statement = backend.db.raw.prepare(text);
    if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
    statement.run();
    return [];
  }
  return (await backend.kysely.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text))).rows;
}

/** Counts the rows of one table on either backend. */
export async function countRows(backend: StoreBackend, table: string): Promise<number> {
  const [row] = await rowsOf(backend, `SELECT count(*) AS n FROM ${table}`);
  return Number(row!.n);
}

export const SECRET = 'test-secret-0123456789abcdef0123456789';

/** Hourly ceilings out of reach, for the tests that post more than a site gets in an hour (the ceiling has tests of its own). */
export const NO_CEILINGS = { contact: 1_000_000, newsletter: 1_000_000 };

/** A fresh temp folder, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens and migrates a SQLite file in `dir`. */
export async function migratedDb(dir: string, file = 'ingest.sqlite'): Promise<SqliteDatabase> {
  const db = openSqlite(join(dir, file));
  const { error } = await migrateToLatest(db.kysely);
  if (error) throw error;
  return db;
}

/** Every row of every table, for "the database is unchanged" assertions. */
export function snapshot(db: SqliteDatabase): Record<string, unknown[]> {
  const tables = ['newsletter', 'contacts', 'outbox', 'captcha_nonces'];
  return Object.fromEntries(tables.map((table) => [table, db.raw.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()]));
}

/**
 * The rows `query` reads from the SQLite file at `path`, through a connection of its own, read-only
 * and closed at once: what another process (a backup, the next start) would find in the file.
 */
export function rowsInFile<Row>(path: string, query: string): Row[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(query).all() as Row[];
  } finally {
    db.close();
  }
}

/** Counts rows of one table. */
export function count(db: SqliteDatabase, table: string): number {
  return (db.raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** A test app on a real SQLite file, with its logs captured as text lines. */
export interface TestApp {
  app: FastifyInstance;
  db: SqliteDatabase;
  store: SubmissionStore;
  logs: string[];
  close: () => Promise<void>;
}

/**
 * Builds the app on a migrated SQLite file in a temp folder; rate limits are high and captcha
 * answers are accepted at once unless given (the captcha tests set `captchaMinFillMs`).
 */
export async function testApp(overrides: Partial<AppDeps> & { clock?: Clock; optIn?: 'double' | 'single' } = {}): Promise<TestApp> {
  const temp = tempDir();
  const db = await migratedDb(temp.dir);
  const store = await openSubmissionStore(db, {});
  const logs: string[] = [];
  const { optIn = 'double', ...deps } = overrides;
  const newsletter = testNewsletter(sqliteOps(db), { optIn });
  await newsletter.lifecycle.recordWordings(newsletter.wordings, Date.now());
  const app = await buildApp({
    store,
    consent: newsletter,
    captchaSecret: SECRET,
    clock: overrides.clock ?? systemClock,
    rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 1_000_000, newsletterDailyMax: 1_000_000, hourlyCeilings: NO_CEILINGS },
    captchaMinFillMs: 0,
    logger: loggerOptions('info', { write: (line) => void logs.push(line) }),
    ...deps,
  });
  await app.ready();
  return {
    app,
    db,
    store,
    logs,
    close: async () => {
      await app.close();
      await store.close();
      db.close();
      temp.remove();
    },
  };
}

/** A test app on either backend, its logs captured; `count` and `rows` read its database. */
export interface BackendTestApp {
  app: FastifyInstance;
  backend: StoreBackend;
  logs: string[];
  count(table: string): Promise<number>;
  rows(text: string): Promise<Array<Record<string, unknown>>>;
  close: () => Promise<void>;
}

/** Builds the app as `testApp` does, on a fresh database of `kind`, with the backend's rate-limit counters (PostgreSQL's shared table, SQLite's counter file). */
export async function testAppOn(
  kind: BackendKind,
  overrides: Partial<AppDeps> & { clock?: Clock; optIn?: 'double' | 'single' } = {},
  options: BackendOptions = {},
): Promise<BackendTestApp> {
  const temp = tempDir();
  const backend = await openBackend(configFor(temp.dir, await databaseEnv(kind)), { probeMs: 50, ...options });
  const logs: string[] = [];
  const { optIn = 'double', ...deps } = overrides;
  const newsletter = testNewsletter(backend.consentDb, { optIn });
  await newsletter.lifecycle.recordWordings(newsletter.wordings, Date.now());
  const app = await buildApp({
    store: backend.submissions,
    consent: newsletter,
    captchaSecret: SECRET,
    clock: overrides.clock ?? systemClock,
    rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 1_000_000, newsletterDailyMax: 1_000_000, hourlyCeilings: NO_CEILINGS },
    captchaMinFillMs: 0,
    rateLimitStore: backend.rateLimitStore,
    isReady: () => backend.isReady(),
    logger: loggerOptions('info', { write: (line) => void logs.push(line) }),
    ...deps,
  });
  await app.ready();
  return {
    app,
    backend,
    logs,
    count: (table) => countRows(backend, table),
    rows: (text) => rowsOf(backend, text),
    close: async () => {
      await app.close();
      await backend.close();
      temp.remove();
    },
  };
}

/** One app of `instancesOn`, with its backend and its metrics (`GET /metrics` answers them). */
export interface Instance {
  app: FastifyInstance;
  backend: StoreBackend;
  metrics: ServiceMetrics;
}

/**
 * `count` apps on one fresh database of `kind`, each on a backend of its own (its own pool and
 * rate-limit store, as each replica has), all sharing the database: PostgreSQL's shared counters.
 * On SQLite, one app whatever `count` says: a SQLite service runs as one process. Every app
 * believes X-Forwarded-For from 127.0.0.1, where `inject` connects from; `logs` has every app's lines.
 */
export async function instancesOn(kind: BackendKind, count: number, overrides: Partial<AppDeps> = {}): Promise<{ instances: Instance[]; logs: string[]; close(): Promise<void> }> {
  const env = await databaseEnv(kind);
  const temps: Array<ReturnType<typeof tempDir>> = [];
  const instances: Instance[] = [];
  const logs: string[] = [];
  const close = async () => {
    for (const { app, backend } of instances.reverse()) {
      await app.close();
      await backend.close();
    }
    for (const temp of temps) temp.remove();
  };
  try {
    for (let i = 0; i < (kind === 'sqlite' ? 1 : count); i++) {
      const temp = tempDir();
      temps.push(temp);
      const backend = await openBackend(configFor(temp.dir, env), { probeMs: 50 });
      const metrics = serviceMetrics(backend.outbox, Date.now);
      const newsletter = testNewsletter(backend.consentDb);
      await newsletter.lifecycle.recordWordings(newsletter.wordings, Date.now());
      const app = await buildApp({
        store: backend.submissions,
        consent: newsletter,
        captchaSecret: SECRET,
        rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 1_000_000, newsletterDailyMax: 1_000_000, hourlyCeilings: NO_CEILINGS },
        captchaMinFillMs: 0,
        rateLimitStore: backend.rateLimitStore,
        trustProxy: ['127.0.0.1'],
        metrics,
        logger: loggerOptions('info', { write: (line) => void logs.push(line) }),
        ...overrides,
      });
      instances.push({ app, backend, metrics });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { instances, logs, close };
}

/**
 * A resolved configuration for a service whose data lives in `dir`; captcha answers are accepted
 * at once and the daily caps and hourly ceilings are out of reach unless `env` says otherwise.
 */
export function configFor(dir: string, env: Record<string, string> = {}): IngestConfig {
  const defaults = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    CAPTCHA_MIN_FILL_MS: '0',
    RATE_LIMIT_CONTACT_DAILY_MAX: '1000000',
    RATE_LIMIT_NEWSLETTER_DAILY_MAX: '1000000',
    RATE_LIMIT_CONTACT_HOURLY_CEILING: '1000000',
    RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: '1000000',
  };
  const result = resolveConfig({ ...defaults, ...env }, dir);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

/** A valid newsletter body; override any field. */
export function signup(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Ana Pérez', email: 'ana@example.com', privacyConsent: true, marketingConsent: false, lang: 'es', ...overrides };
}

/** A valid contact body without its captcha; override any field. */
export function contact(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Ana',
    lastName: 'Pérez',
    email: 'ana@example.com',
    phone: '+34 600 000 000',
    companyName: 'Acme Datos',
    country: 'es',
    message: 'Hola,\nquiero una demo.',
    lang: 'es',
    ...overrides,
  };
}

/** Fetches a challenge from the app and returns a correctly answered `captcha` field. */
export async function solvedCaptcha(app: FastifyInstance): Promise<{ token: string; answer: number }> {
  const res = await app.inject({ method: 'GET', url: '/api/captcha' });
  const challenge = res.json() as { a: number; b: number; token: string };
  return { token: challenge.token, answer: challenge.a + challenge.b };
}

/** POSTs `body` as JSON. */
export function postJson(app: FastifyInstance, url: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
}

/** Waits until `condition()` holds (it may be async), polling every 10 ms, or fails after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
