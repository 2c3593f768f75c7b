/**
 * The service's configuration, read from the environment and validated with zod once at start-up.
 *
 * Two types, as everywhere: `IngestEnv` is what an operator may write (every variable optional,
 * defaults below), `IngestConfig` is the resolved result with everything filled in, paths made
 * absolute against the working directory. A bad value yields one line naming the variable and
 * what it expects; the CLI prints it and exits with code 2.
 *
 * | variable | default |
 * |---|---|
 * | PORT | 8787 |
 * | HOST | 127.0.0.1 (the container image sets 0.0.0.0) |
 * | DATA_DIR | data |
 * | DATABASE_URL | sqlite:$DATA_DIR/ingest.sqlite (`sqlite:PATH` or a plain path), or postgres://user:password@host:5432/db for replicas |
 * | PG_POOL_MAX | 10 connections per replica to PostgreSQL (ignored on SQLite) |
 * | SMTP_URL | unset: mail is written as .eml files into $DATA_DIR/mail/ |
 * | SALES_EMAIL | sales@localhost |
 * | MAIL_FROM | ingest@localhost |
 * | SALES_TIMEZONE | Europe/Madrid (the IANA time zone the sales email shows its times in) |
 * | ALLOWED_ORIGINS | empty (same origin only); comma list such as https://example.com,https://www.example.com |
 * | CAPTCHA_SECRET | generated once and kept in $DATA_DIR/captcha-secret |
 * | CAPTCHA_MIN_FILL_MS | 3000: a contact sent sooner after its challenge was issued is refused (0 turns it off) |
 * | LOG_LEVEL | info |
 * | PRIVACY_VERSION | the privacy policy's version the site publishes (`legal.privacyVersion` in $CONTENT_DIR/site.json), recorded with each consent |
 * | CONTENT_DIR | the project's content/ beside ingest/ (the site's texts: mail texts, consent wording, site URL; the container image has a copy) |
 * | SITE_URL | `siteUrl` in $CONTENT_DIR/site.json: the public site, for the links in mails and the pages forms are sent to |
 * | PUBLIC_API_URL | $SITE_URL/api: where the public reaches this service (the one-click unsubscribe URL) |
 * | NEWSLETTER_OPT_IN | double: a signup is active only after its confirmation link is used; single: active at once (no mail) |
 * | CONFIRM_LINK_DAYS | 7: how long a confirmation link works; an unconfirmed signup is deleted when its newest link expires |
 * | RATE_LIMIT_MAX | 10 form posts per window per client IP (captcha fetches: 3×) |
 * | RATE_LIMIT_WINDOW_MS | 60000 |
 * | RATE_LIMIT_CONTACT_DAILY_MAX | 50 contact posts per client IP per 24 h, on top of the per-window limit |
 * | RATE_LIMIT_NEWSLETTER_DAILY_MAX | 50 newsletter signups per client IP per 24 h, on top of the per-window limit |
 * | TRUST_PROXY | false; a comma list of the proxy addresses (IPs/CIDRs) to trust, or a hop count (only when HOST is a loopback address) |
 * | HEADERS_TIMEOUT_MS | 10000: the request line and headers must arrive within this time, else 408 |
 * | REQUEST_TIMEOUT_MS | 30000: the whole request, body included, must arrive within this time, else 408 |
 * | IDLE_TIMEOUT_MS | 72000: a connection with no traffic (between keep-alive requests, too) is closed after this |
 * | SHUTDOWN_DRAIN_MS | 5000: on SIGTERM, how long answers keep coming (with `Connection: close`) before the service closes |
 * | HSTS_MAX_AGE | unset: no Strict-Transport-Security header. Seconds (such as 31536000) once the service's host is served over HTTPS only; the site's host sets HSTS at its edge (the nginx config's commented line) |
 * | OUTBOX_LEASE_MS | 60000: how long a replica's claim on an outbox row lasts unless renewed; a row whose replica died is sent by another after this long |
 */
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_MIN_FILL_MS } from './http/forms/captcha.ts';
import { type ServerTimeouts, DEFAULT_TIMEOUTS } from './http/client-timeouts.ts';
import { DEFAULT_CONTACT_DAILY_MAX } from './http/forms/contact-route.ts';
import { DEFAULT_NEWSLETTER_DAILY_MAX } from './http/forms/newsletter-route.ts';

/** The environment variables the service reads, all optional. */
type IngestEnv = Partial<Record<(typeof VARIABLES)[number], string>>;

/** The log levels pino accepts. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The resolved configuration. */
export interface IngestConfig {
  port: number;
  host: string;
  dataDir: string;
  /** SQLite: one file, one process. PostgreSQL: any number of replicas on one database. */
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolMax: number };
  mail: { kind: 'smtp'; url: string } | { kind: 'file'; dir: string };
  salesEmail: string;
  mailFrom: string;
  /** The IANA time zone of the sales team, e.g. `Europe/Madrid`. */
  salesTimeZone: string;
  allowedOrigins: string[];
  /** null: use (or create) the secret kept in `captchaSecretFile`. */
  captchaSecret: string | null;
  captchaSecretFile: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Null: the version in the site's content (`legal.privacyVersion`). */
  privacyVersion: string | null;
  contentDir: string;
  /** Null: the `siteUrl` of the site's content. */
  siteUrl: string | null;
  /** Null: `<site URL>/api`. */
  publicApiUrl: string | null;
  newsletterOptIn: 'double' | 'single';
  confirmLinkDays: number;
  /** Form posts per client IP per window, and contact posts per client IP per 24 h. */
  rateLimit: { max: number; windowMs: number; contactDailyMax: number; newsletterDailyMax: number };
  captchaMinFillMs: number;
  /** false: the connecting address is the client; a list: those proxies' X-Forwarded-For is believed; a number: that many hops. */
  trustProxy: false | number | string[];
  timeouts: ServerTimeouts;
  shutdownDrainMs: number;
  /** How long an outbox claim lasts unless renewed (see `mail/outbox-worker.ts`). */
  outboxLeaseMs: number;
  /** Null: the API sends no Strict-Transport-Security; else its max-age in seconds (0 tells browsers to forget it). */
  hstsMaxAge: number | null;
}

// The project's content folder beside ingest/ (in the container image too: /app/content).
const DEFAULT_CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));

const VARIABLES = [
  'PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'SALES_EMAIL', 'MAIL_FROM', 'SALES_TIMEZONE', 'ALLOWED_ORIGINS',
  'CAPTCHA_SECRET', 'LOG_LEVEL', 'PRIVACY_VERSION', 'RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'TRUST_PROXY',
  'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'IDLE_TIMEOUT_MS', 'SHUTDOWN_DRAIN_MS', 'PG_POOL_MAX', 'OUTBOX_LEASE_MS', 'HSTS_MAX_AGE',
  'CONTENT_DIR', 'SITE_URL', 'PUBLIC_API_URL', 'NEWSLETTER_OPT_IN', 'CONFIRM_LINK_DAYS',
  'CAPTCHA_MIN_FILL_MS', 'RATE_LIMIT_CONTACT_DAILY_MAX', 'RATE_LIMIT_NEWSLETTER_DAILY_MAX',
] as const;

// Values never echoed back in an error line.
const SECRET_VARIABLES = new Set(['CAPTCHA_SECRET', 'SMTP_URL', 'DATABASE_URL']);

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, what)
    .transform(Number)
    .refine((n) => n >= min && n <= max, what);
const milliseconds = wholeNumber(100, 3_600_000, 'must be a whole number of milliseconds from 100 to 3600000');
const origin = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^/\s]+$/.test(value) && URL.canParse(value) && new URL(value).origin === value,
    'must be a comma-separated list of origins (scheme://host[:port], no path) such as https://example.com,https://www.example.com',
  );

const envSchema = z.object({
  PORT: wholeNumber(0, 65535, 'must be a whole number from 0 to 65535').default(8787),
  HOST: z
    .string()
    .regex(/^[\w.:%[\]-]{1,253}$/, 'must be a host name or IP address to listen on, such as 127.0.0.1 or 0.0.0.0')
    .default('127.0.0.1'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z
    .string()
    .superRefine((value, ctx) => {
      if (/^postgres(ql)?:/i.test(value)) {
        if (!isPostgresUrl(value)) ctx.addIssue({ code: 'custom', message: 'must be a URL such as postgres://user:password@db.example.com:5432/forms' });
      } else if (/^[a-z][\w+.-]*:\/\//i.test(value) && !value.startsWith('sqlite:')) ctx.addIssue({ code: 'custom', message: 'must be sqlite:PATH or a file path' });
      else if (value.replace(/^sqlite:(\/\/)?/, '') === '') ctx.addIssue({ code: 'custom', message: 'must name a file after sqlite:' });
    })
    .optional(),
  SMTP_URL: z
    .string()
    .refine(
      (value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol),
      'must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587',
    )
    .optional(),
  SALES_EMAIL: z.string().regex(ADDRESS, 'must be one email address such as sales@example.com').default('sales@localhost'),
  MAIL_FROM: z.string().regex(ADDRESS, 'must be one email address such as forms@example.com').default('ingest@localhost'),
  SALES_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone name such as Europe/Madrid, America/New_York or UTC')
    .default('Europe/Madrid'),
  ALLOWED_ORIGINS: z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
    .pipe(z.array(origin))
    .default([]),
  CAPTCHA_SECRET: z.string().min(32, 'must be at least 32 characters (for example `openssl rand -hex 32`)').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).default('info'),
  PRIVACY_VERSION: z.string().regex(/^[\w.-]{1,40}$/, 'must be a short version label such as 2025-01-12').optional(),
  CONTENT_DIR: z.string().optional(),
  SITE_URL: z
    .string()
    .refine((value) => /^https?:\/\/[^/\s]+\/?$/.test(value) && URL.canParse(value), 'must be the site\'s origin, such as https://www.example.com')
    .transform((value) => new URL(value).origin)
    .optional(),
  PUBLIC_API_URL: z
    .string()
    .refine((value) => /^https?:\/\/\S+$/.test(value) && URL.canParse(value), 'must be an absolute URL such as https://www.example.com/api')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  NEWSLETTER_OPT_IN: z.enum(['double', 'single'], 'must be double (confirmation mail, the default) or single').default('double'),
  CONFIRM_LINK_DAYS: wholeNumber(1, 30, 'must be a whole number of days from 1 to 30').default(7),
  RATE_LIMIT_MAX: wholeNumber(1, 1e9, 'must be a whole number of requests, at least 1').default(10),
  RATE_LIMIT_WINDOW_MS: wholeNumber(1, 1e9, 'must be a whole number of milliseconds, at least 1').default(60_000),
  RATE_LIMIT_CONTACT_DAILY_MAX: wholeNumber(1, 1e9, 'must be a whole number of contact posts, at least 1').default(DEFAULT_CONTACT_DAILY_MAX),
  RATE_LIMIT_NEWSLETTER_DAILY_MAX: wholeNumber(1, 1e9, 'must be a whole number of newsletter signups, at least 1').default(DEFAULT_NEWSLETTER_DAILY_MAX),
  CAPTCHA_MIN_FILL_MS: wholeNumber(0, 60_000, 'must be a whole number of milliseconds from 0 to 60000').default(DEFAULT_MIN_FILL_MS),
  TRUST_PROXY: z
    .string()
    .refine(
      (value) => value === 'false' || /^\d{1,3}$/.test(value) || value.split(',').every((item) => isProxyAddress(item.trim())),
      'must name the proxy addresses to trust as a comma list of IPs or CIDRs (such as 127.0.0.1 or 172.17.0.1), or be a hop count or false',
    )
    .transform((value): false | number | string[] =>
      value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value.split(',').map((item) => item.trim()),
    )
    .default(false),
  HEADERS_TIMEOUT_MS: milliseconds.default(DEFAULT_TIMEOUTS.headersMs),
  REQUEST_TIMEOUT_MS: milliseconds.default(DEFAULT_TIMEOUTS.requestMs),
  IDLE_TIMEOUT_MS: milliseconds.default(DEFAULT_TIMEOUTS.idleMs),
  SHUTDOWN_DRAIN_MS: wholeNumber(0, 60_000, 'must be a whole number of milliseconds from 0 to 60000').default(5000),
  PG_POOL_MAX: wholeNumber(1, 1000, 'must be a whole number of connections from 1 to 1000').default(10),
  OUTBOX_LEASE_MS: wholeNumber(1000, 3_600_000, 'must be a whole number of milliseconds from 1000 to 3600000').default(60_000),
  HSTS_MAX_AGE: wholeNumber(0, 63_072_000, 'must be a whole number of seconds from 0 to 63072000 (two years), such as 31536000 for a year').optional(),
});

// postgres://[user[:password]@]host[:port]/database: a host and a database name are required.
function isPostgresUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.hostname !== '' && /^\/[^/]+$/.test(url.pathname);
}

// A zone name Intl knows (the same database the sales email's dates are formatted with).
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// An address or CIDR as @fastify's proxy-addr takes it: 10.0.0.1, 10.0.0.0/8, fd00::/8, or 10.0.0.0/255.0.0.0.
function isProxyAddress(item: string): boolean {
  const [address = '', range, ...rest] = item.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (range === undefined) return true;
  if (isIP(range) !== 0) return isIP(range) === isIP(address);
  return /^\d{1,3}$/.test(range) && Number(range) <= (isIP(address) === 4 ? 32 : 128);
}

// 127.0.0.0/8, ::1 and localhost: only processes on this machine (or in this container) can connect.
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

// Settings that are each valid but wrong together; one line each, like the schema's.
function conflicts(e: z.output<typeof envSchema>): string[] {
  const errors: string[] = [];
  if (typeof e.TRUST_PROXY === 'number' && e.TRUST_PROXY > 0 && !isLoopback(e.HOST)) {
    errors.push(
      `TRUST_PROXY must name the proxy addresses (such as 172.17.0.1) when HOST is not a loopback address: with a hop count any client that connects directly can forge X-Forwarded-For and escape the rate limit (got "${e.TRUST_PROXY}" with HOST "${e.HOST}")`,
    );
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    errors.push(
      `HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS, which covers the headers too (got ${e.HEADERS_TIMEOUT_MS} and ${e.REQUEST_TIMEOUT_MS})`,
    );
  }
  return errors;
}

/** The outcome of `resolveConfig`: the configuration, or one line per bad variable. */
export type ConfigResult = { ok: true; config: IngestConfig } | { ok: false; errors: string[] };

/**
 * Resolves the configuration from `env` (blank values count as unset) against the directory `cwd`.
 *
 * @example resolveConfig({ PORT: 'abc' }, '/srv') // → { ok: false, errors: ['PORT must be a whole number from 0 to 65535 (got "abc")'] }
 */
export function resolveConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): ConfigResult {
  const given = Object.fromEntries(VARIABLES.map((name) => [name, env[name]?.trim() || undefined]));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(given[name])})`;
      return `${name} ${issue.message}${shown}`;
    });
    return { ok: false, errors: [...new Set(errors)] };
  }
  const e = parsed.data;
  const conflicting = conflicts(e);
  if (conflicting.length > 0) return { ok: false, errors: conflicting };
  const dataDir = resolve(cwd, e.DATA_DIR);
  const postgres = e.DATABASE_URL !== undefined && /^postgres(ql)?:/i.test(e.DATABASE_URL);
  const databasePath = e.DATABASE_URL?.replace(/^sqlite:(\/\/)?/, '') ?? resolve(dataDir, 'ingest.sqlite');
  const config: IngestConfig = {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: postgres
      ? { kind: 'postgres', url: e.DATABASE_URL!, poolMax: e.PG_POOL_MAX }
      : { kind: 'sqlite', path: isAbsolute(databasePath) ? databasePath : resolve(cwd, databasePath) },
    mail: e.SMTP_URL ? { kind: 'smtp', url: e.SMTP_URL } : { kind: 'file', dir: resolve(dataDir, 'mail') },
    salesEmail: e.SALES_EMAIL,
    mailFrom: e.MAIL_FROM,
    salesTimeZone: e.SALES_TIMEZONE,
    allowedOrigins: e.ALLOWED_ORIGINS,
    captchaSecret: e.CAPTCHA_SECRET ?? null,
    captchaSecretFile: resolve(dataDir, 'captcha-secret'),
    logLevel: e.LOG_LEVEL,
    privacyVersion: e.PRIVACY_VERSION ?? null,
    contentDir: e.CONTENT_DIR === undefined ? DEFAULT_CONTENT_DIR : resolve(cwd, e.CONTENT_DIR),
    siteUrl: e.SITE_URL ?? null,
    publicApiUrl: e.PUBLIC_API_URL ?? null,
    newsletterOptIn: e.NEWSLETTER_OPT_IN,
    confirmLinkDays: e.CONFIRM_LINK_DAYS,
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      contactDailyMax: e.RATE_LIMIT_CONTACT_DAILY_MAX,
      newsletterDailyMax: e.RATE_LIMIT_NEWSLETTER_DAILY_MAX,
    },
    captchaMinFillMs: e.CAPTCHA_MIN_FILL_MS,
    trustProxy: e.TRUST_PROXY,
    timeouts: { headersMs: e.HEADERS_TIMEOUT_MS, requestMs: e.REQUEST_TIMEOUT_MS, idleMs: e.IDLE_TIMEOUT_MS },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    outboxLeaseMs: e.OUTBOX_LEASE_MS,
    hstsMaxAge: e.HSTS_MAX_AGE ?? null,
  };
  return { ok: true, config: Object.freeze(config) };
}
