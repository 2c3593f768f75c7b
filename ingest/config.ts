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
 * | HOST | 0.0.0.0 |
 * | DATA_DIR | data |
 * | DATABASE_URL | sqlite:$DATA_DIR/ingest.sqlite (`sqlite:PATH` or a plain path) |
 * | SMTP_URL | unset: mail is written as .eml files into $DATA_DIR/mail/ |
 * | SALES_EMAIL | sales@localhost |
 * | MAIL_FROM | ingest@localhost |
 * | ALLOWED_ORIGINS | empty (same origin only); comma list such as https://example.com,https://www.example.com |
 * | CAPTCHA_SECRET | generated once and kept in $DATA_DIR/captcha-secret |
 * | LOG_LEVEL | info |
 * | PRIVACY_VERSION | 2025-01-12 (the privacy text version recorded with each consent) |
 * | RATE_LIMIT_MAX | 10 form posts per window per client IP (captcha fetches: 3×) |
 * | RATE_LIMIT_WINDOW_MS | 60000 |
 * | TRUST_PROXY | false; `true`, a hop count, or a comma list of proxy IPs/CIDRs when behind a reverse proxy |
 */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { OPERATOR_ERRORS } from './operator-errors.ts';

/** The environment variables the service reads, all optional. */
type IngestEnv = Partial<Record<(typeof VARIABLES)[number], string>>;

/** The log levels pino accepts. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The resolved configuration. */
export interface IngestConfig {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; path: string };
  mail: { kind: 'smtp'; url: string } | { kind: 'file'; dir: string };
  salesEmail: string;
  mailFrom: string;
  allowedOrigins: string[];
  /** null: use (or create) the secret kept in `captchaSecretFile`. */
  captchaSecret: string | null;
  captchaSecretFile: string;
  logLevel: (typeof LOG_LEVELS)[number];
  privacyVersion: string;
  rateLimit: { max: number; windowMs: number };
  trustProxy: boolean | number | string[];
}

const VARIABLES = [
  'PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'SALES_EMAIL', 'MAIL_FROM', 'ALLOWED_ORIGINS',
  'CAPTCHA_SECRET', 'LOG_LEVEL', 'PRIVACY_VERSION', 'RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'TRUST_PROXY',
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
    .regex(/^[\w.:%[\]-]{1,253}$/, 'must be a host name or IP address to listen on, such as 0.0.0.0 or ::')
    .default('0.0.0.0'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z
    .string()
    .superRefine((value, ctx) => {
      if (/^postgres(ql)?:/i.test(value)) ctx.addIssue({ code: 'custom', message: 'postgres' });
      else if (/^[a-z][\w+.-]*:\/\//i.test(value) && !value.startsWith('sqlite:')) ctx.addIssue({ code: 'custom', message: 'must be sqlite:PATH or a file path' });
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
  ALLOWED_ORIGINS: z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
    .pipe(z.array(origin))
    .default([]),
  CAPTCHA_SECRET: z.string().min(32, 'must be at least 32 characters (for example `openssl rand -hex 32`)').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).default('info'),
  PRIVACY_VERSION: z.string().regex(/^[\w.-]{1,40}$/, 'must be a short version label such as 2025-01-12').default('2025-01-12'),
  RATE_LIMIT_MAX: wholeNumber(1, 1e9, 'must be a whole number of requests, at least 1').default(10),
  RATE_LIMIT_WINDOW_MS: wholeNumber(1, 1e9, 'must be a whole number of milliseconds, at least 1').default(60_000),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,3}|[\d.:a-fA-F/]+(,[\d.:a-fA-F/]+)*)$/, 'must be true, false, a hop count, or a comma list of proxy IPs/CIDRs')
    .transform((value): boolean | number | string[] =>
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value.split(','),
    )
    .default(false),
});

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
      if (issue.message === 'postgres') return OPERATOR_ERRORS.postgres_unsupported.message;
      const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(given[name])})`;
      return `${name} ${issue.message}${shown}`;
    });
    return { ok: false, errors: [...new Set(errors)] };
  }
  const e = parsed.data;
  const dataDir = resolve(cwd, e.DATA_DIR);
  const databasePath = e.DATABASE_URL?.replace(/^sqlite:(\/\/)?/, '') ?? resolve(dataDir, 'ingest.sqlite');
  const config: IngestConfig = {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: { kind: 'sqlite', path: isAbsolute(databasePath) ? databasePath : resolve(cwd, databasePath) },
    mail: e.SMTP_URL ? { kind: 'smtp', url: e.SMTP_URL } : { kind: 'file', dir: resolve(dataDir, 'mail') },
    salesEmail: e.SALES_EMAIL,
    mailFrom: e.MAIL_FROM,
    allowedOrigins: e.ALLOWED_ORIGINS,
    captchaSecret: e.CAPTCHA_SECRET ?? null,
    captchaSecretFile: resolve(dataDir, 'captcha-secret'),
    logLevel: e.LOG_LEVEL,
    privacyVersion: e.PRIVACY_VERSION,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    trustProxy: e.TRUST_PROXY,
  };
  return { ok: true, config: Object.freeze(config) };
}
