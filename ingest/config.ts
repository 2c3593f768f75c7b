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
 * | SMTP_URL | unset: mail is written as .eml files into $DATA_DIR/mail/. Set: STARTTLS is required unless the relay is on loopback or the URL says `?starttls=optional` (`config/smtp-url.ts`) |
 * | SALES_EMAIL | sales@localhost |
 * | MAIL_FROM | ingest@localhost; `Name <address>` gives the mails a display name |
 * | SMTP_MAX_CONNECTIONS | 1: SMTP connections each replica keeps open and reuses (several mails each) |
 * | DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE | unset: mail is not signed; all three: DKIM-signed for that domain (MAIL_FROM's or a parent) |
 * | SALES_TIMEZONE | Europe/Madrid (the IANA time zone the sales email shows its times in) |
 * | SALES_LANG | en: the language of the sales email (one of the site's languages) |
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
 * | RATE_LIMIT_CONTACT_DAILY_MAX | 5 contact posts per client IP per 24 h, on top of the per-window limit |
 * | RATE_LIMIT_NEWSLETTER_DAILY_MAX | 5 newsletter signups per client IP per 24 h, on top of the per-window limit |
 * | RATE_LIMIT_IPV6_56_FACTOR, RATE_LIMIT_IPV6_48_FACTOR | 4 and 16: an IPv6 /56 and /48 share that many times a /64's allowance, for each per-client limit |
 * | RATE_LIMIT_CONTACT_HOURLY_CEILING, RATE_LIMIT_NEWSLETTER_HOURLY_CEILING | 20 and 40 posts of that form per hour from all clients together, on every replica; then "try later" |
 * | TRUST_PROXY | false; a comma list of the proxy addresses (IPs/CIDRs, none shorter than /8) to trust, or a hop count (only when HOST is a loopback address) |
 * | HEADERS_TIMEOUT_MS | 10000: the request line and headers must arrive within this time, else 408 |
 * | REQUEST_TIMEOUT_MS | 30000: the whole request, body included, must arrive within this time, else 408 |
 * | IDLE_TIMEOUT_MS | 72000: a connection with no traffic (between keep-alive requests, too) is closed after this |
 * | SHUTDOWN_DRAIN_MS | 5000: on SIGTERM, how long answers keep coming (with `Connection: close`) before the service closes |
 * | HSTS_MAX_AGE | unset: no Strict-Transport-Security header. Seconds (such as 31536000) once the service's host is served over HTTPS only; the site's host sets HSTS at its edge (the nginx config's commented line) |
 * | OUTBOX_LEASE_MS | 60000: how long a replica's claim on an outbox row lasts unless renewed; a row whose replica died is sent by another after this long |
 * | WEBHOOK_URL, WEBHOOK_SECRET | unset: no webhook. Both: one endpoint (`default`) receives every event, signed with the `whsec_…` secret |
 * | WEBHOOKS_FILE | unset; a JSON file of several endpoints, each with its own secret(s) and event types (`config/webhook-endpoints.ts`) |
 * | WEBHOOK_ALLOW_PRIVATE | 0: an endpoint on a private or loopback address is refused; 1: allowed (plain http too) |
 * | WEBHOOK_TIMEOUT_MS | 10000: how long one delivery may take, connection to answer, before it is retried |
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Lang } from './contract/languages.ts';
import { conflicts, envSchema, LOG_LEVELS, SECRET_VARIABLES, VARIABLES } from './config/env-schema.ts';
import type { ServerTimeouts } from './http/client-timeouts.ts';
import type { SmtpTls } from './config/smtp-url.ts';
import { resolveWebhooks, type WebhooksConfig } from './config/webhook-endpoints.ts';

/** The resolved configuration. */
export interface IngestConfig {
  port: number;
  host: string;
  dataDir: string;
  /** SQLite: one file, one process. PostgreSQL: any number of replicas on one database. */
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolMax: number };
  /**
   * SMTP: a pool of at most `maxConnections` reused connections, protected by `tls`
   * (`config/smtp-url.ts`: STARTTLS required unless the relay is on loopback or `SMTP_URL` opts
   * out); file: `.eml` files in `dir`.
   */
  mail: { kind: 'smtp'; url: string; tls: SmtpTls; maxConnections: number } | { kind: 'file'; dir: string };
  /** Null: mail goes unsigned (or a relay signs it); else DKIM-signed with the key in `keyFile`. */
  dkim: DkimConfig | null;
  salesEmail: string;
  /** The sender as nodemailer takes it: `forms@example.com` or `"MaskWise" <forms@example.com>`. */
  mailFrom: string;
  /** The IANA time zone of the sales team, e.g. `Europe/Madrid`. */
  salesTimeZone: string;
  /** The language the sales email is written in. */
  salesLang: Lang;
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
  /**
   * Form posts per client IP per window, contact posts and signups per client IP per 24 h, the
   * multiples of those an IPv6 /56 and /48 share, and each form's posts per hour from everyone.
   */
  rateLimit: {
    max: number;
    windowMs: number;
    contactDailyMax: number;
    newsletterDailyMax: number;
    ipv6Factors: { per56: number; per48: number };
    hourlyCeilings: { contact: number; newsletter: number };
  };
  captchaMinFillMs: number;
  /** false: the connecting address is the client; a list: those proxies' X-Forwarded-For is believed; a number: that many hops. */
  trustProxy: false | number | string[];
  timeouts: ServerTimeouts;
  shutdownDrainMs: number;
  /** How long an outbox claim lasts unless renewed (see `mail/outbox-worker.ts`). */
  outboxLeaseMs: number;
  /** Null: the API sends no Strict-Transport-Security; else its max-age in seconds (0 tells browsers to forget it). */
  hstsMaxAge: number | null;
  /** The webhook endpoints (none by default) and how they are reached. */
  webhooks: WebhooksConfig;
}

/** DKIM signing as configured: the key file is read (and checked) when the mailer is made, `mail/dkim-key.ts`. */
export interface DkimConfig {
  domain: string;
  selector: string;
  keyFile: string;
}

// The project's content folder beside ingest/ (in the container image too: /app/content).
const DEFAULT_CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));

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
  const webhooks = resolveWebhooks(e, e.WEBHOOKS_FILE === undefined ? null : resolve(cwd, e.WEBHOOKS_FILE));
  if (!webhooks.ok) return { ok: false, errors: webhooks.errors };
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
    mail: e.SMTP_URL ? { kind: 'smtp', ...e.SMTP_URL, maxConnections: e.SMTP_MAX_CONNECTIONS } : { kind: 'file', dir: resolve(dataDir, 'mail') },
    dkim:
      e.DKIM_DOMAIN !== undefined && e.DKIM_SELECTOR !== undefined && e.DKIM_PRIVATE_KEY_FILE !== undefined
        ? { domain: e.DKIM_DOMAIN, selector: e.DKIM_SELECTOR, keyFile: resolve(cwd, e.DKIM_PRIVATE_KEY_FILE) }
        : null,
    salesEmail: e.SALES_EMAIL,
    mailFrom: e.MAIL_FROM.name === null ? e.MAIL_FROM.address : `"${e.MAIL_FROM.name}" <${e.MAIL_FROM.address}>`,
    salesTimeZone: e.SALES_TIMEZONE,
    salesLang: e.SALES_LANG,
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
      ipv6Factors: { per56: e.RATE_LIMIT_IPV6_56_FACTOR, per48: e.RATE_LIMIT_IPV6_48_FACTOR },
      hourlyCeilings: { contact: e.RATE_LIMIT_CONTACT_HOURLY_CEILING, newsletter: e.RATE_LIMIT_NEWSLETTER_HOURLY_CEILING },
    },
    captchaMinFillMs: e.CAPTCHA_MIN_FILL_MS,
    trustProxy: e.TRUST_PROXY,
    timeouts: { headersMs: e.HEADERS_TIMEOUT_MS, requestMs: e.REQUEST_TIMEOUT_MS, idleMs: e.IDLE_TIMEOUT_MS },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    outboxLeaseMs: e.OUTBOX_LEASE_MS,
    hstsMaxAge: e.HSTS_MAX_AGE ?? null,
    webhooks: webhooks.webhooks,
  };
  return { ok: true, config: Object.freeze(config) };
}
