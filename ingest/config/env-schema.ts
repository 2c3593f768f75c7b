/**
 * The environment variables of the service as a zod schema: what each may hold, its default (the
 * defaults themselves are `defaults.ts`), and settings that are each valid but wrong together.
 * `config.ts` resolves the parsed values into the configuration the service runs with.
 */
import { z } from 'zod';
import { DATA_FACTS } from '../contract/data-facts.ts';
import { LANGS } from '../contract/languages.ts';
import { isLoopbackHost } from './loopback.ts';
import { smtpTransport } from './smtp-url.ts';
import { MIN_TRUSTED_PREFIX, trustedRange, trustsNearlyEveryone } from './trusted-proxies.ts';
import { webhookSecret } from './webhook-endpoints.ts';
import {
  DEFAULT_CONTACT_DAILY_MAX,
  DEFAULT_HOURLY_CEILINGS,
  DEFAULT_IPV6_FACTORS,
  DEFAULT_MIN_FILL_MS,
  DEFAULT_NEWSLETTER_DAILY_MAX,
  DEFAULT_TIMEOUTS,
} from './defaults.ts';

/** The log levels pino accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every variable the service reads (docs/operators.md has a row for each). */
export const VARIABLES = [
  'PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'SALES_EMAIL', 'MAIL_FROM', 'SALES_TIMEZONE', 'SALES_LANG', 'ALLOWED_ORIGINS',
  'CAPTCHA_SECRET', 'LOG_LEVEL', 'PRIVACY_VERSION', 'RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'TRUST_PROXY',
  'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'IDLE_TIMEOUT_MS', 'SHUTDOWN_DRAIN_MS', 'PG_POOL_MAX', 'OUTBOX_LEASE_MS', 'HSTS_MAX_AGE',
  'CONTENT_DIR', 'SITE_URL', 'PUBLIC_API_URL', 'NEWSLETTER_OPT_IN', 'CONFIRM_LINK_DAYS',
  'CAPTCHA_MIN_FILL_MS', 'RATE_LIMIT_CONTACT_DAILY_MAX', 'RATE_LIMIT_NEWSLETTER_DAILY_MAX',
  'RATE_LIMIT_IPV6_56_FACTOR', 'RATE_LIMIT_IPV6_48_FACTOR', 'RATE_LIMIT_CONTACT_HOURLY_CEILING', 'RATE_LIMIT_NEWSLETTER_HOURLY_CEILING',
  'SMTP_MAX_CONNECTIONS', 'DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY_FILE',
  'WEBHOOK_URL', 'WEBHOOK_SECRET', 'WEBHOOKS_FILE', 'WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_TIMEOUT_MS',
] as const;

// Values never echoed back in an error line.
export const SECRET_VARIABLES = new Set(['CAPTCHA_SECRET', 'SMTP_URL', 'DATABASE_URL', 'WEBHOOK_SECRET']);

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
// `Name <address>` or `"Name, Inc." <address>`: a display name of printable characters without quotes, brackets or backslashes.
const NAMED_ADDRESS = /^"?([^"<>\\\p{Cc}]{1,64}?)"?\s*<([^\s@<>",;]+@[^\s@<>",;]+)>$/u;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
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

/** What each variable may hold, its default, and the line an operator reads when it is wrong. */
export const envSchema = z.object({
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
    .transform((value, ctx) => {
      const transport = smtpTransport(value);
      if (transport.ok) return { url: transport.url, tls: transport.tls };
      ctx.addIssue({ code: 'custom', message: transport.problem });
      return z.NEVER;
    })
    .optional(),
  SALES_EMAIL: z.string().regex(ADDRESS, 'must be one email address such as sales@example.com').default('sales@localhost'),
  MAIL_FROM: z
    .string()
    .transform((value, ctx) => {
      const named = NAMED_ADDRESS.exec(value);
      if (named !== null && named[1]!.trim() !== '') return { name: named[1]!.trim(), address: named[2]! };
      if (ADDRESS.test(value)) return { name: null, address: value };
      ctx.addIssue({ code: 'custom', message: 'must be one email address, with or without a display name: forms@example.com or MaskWise <forms@example.com>' });
      return z.NEVER;
    })
    .default({ name: null, address: 'ingest@localhost' }),
  SMTP_MAX_CONNECTIONS: wholeNumber(1, 50, 'must be a whole number of connections from 1 to 50').default(1),
  DKIM_DOMAIN: z.string().regex(DOMAIN, 'must be a domain name such as example.com').transform((value) => value.toLowerCase()).optional(),
  DKIM_SELECTOR: z.string().regex(/^[a-z0-9](?:[a-z0-9._-]{0,62})$/i, 'must be a selector such as mail or 2026a (letters, digits, dots, dashes)').optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().optional(),
  SALES_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone name such as Europe/Madrid, America/New_York or UTC')
    .default('Europe/Madrid'),
  SALES_LANG: z.enum(LANGS, `must be one of the site's languages: ${LANGS.join(', ')}`).default('en'),
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
  // The privacy policy and the pages state these (ingest/contract/data-facts.ts): a value they do not state is refused.
  CONFIRM_LINK_DAYS: wholeNumber(DATA_FACTS.linkDays, DATA_FACTS.linkDays, `must be ${DATA_FACTS.linkDays}, the days the privacy policy and the pages state (change linkDays in ingest/contract/data-facts.ts and rebuild the site to change it)`).default(DATA_FACTS.linkDays),
  RATE_LIMIT_MAX: wholeNumber(1, 1e9, 'must be a whole number of requests, at least 1').default(10),
  RATE_LIMIT_WINDOW_MS: wholeNumber(1, DATA_FACTS.rateWindowMinutes * 60_000, `must be a whole number of milliseconds from 1 to ${DATA_FACTS.rateWindowMinutes * 60_000} (the privacy policy keeps the counters no longer)`).default(DATA_FACTS.rateWindowMinutes * 60_000),
  RATE_LIMIT_CONTACT_DAILY_MAX: wholeNumber(1, 1e9, 'must be a whole number of contact posts, at least 1').default(DEFAULT_CONTACT_DAILY_MAX),
  RATE_LIMIT_NEWSLETTER_DAILY_MAX: wholeNumber(1, 1e9, 'must be a whole number of newsletter signups, at least 1').default(DEFAULT_NEWSLETTER_DAILY_MAX),
  // A /56 holds 256 /64s and a /48 65,536: a larger factor than that would limit nothing.
  RATE_LIMIT_IPV6_56_FACTOR: wholeNumber(1, 256, "must be a whole number from 1 to 256: how many times a /64's allowance an IPv6 /56 shares").default(DEFAULT_IPV6_FACTORS.per56),
  RATE_LIMIT_IPV6_48_FACTOR: wholeNumber(1, 65_536, "must be a whole number from 1 to 65536: how many times a /64's allowance an IPv6 /48 shares").default(DEFAULT_IPV6_FACTORS.per48),
  RATE_LIMIT_CONTACT_HOURLY_CEILING: wholeNumber(1, 1e9, 'must be a whole number of contact posts per hour from all clients together, at least 1').default(DEFAULT_HOURLY_CEILINGS.contact),
  RATE_LIMIT_NEWSLETTER_HOURLY_CEILING: wholeNumber(1, 1e9, 'must be a whole number of newsletter signups per hour from all clients together, at least 1').default(DEFAULT_HOURLY_CEILINGS.newsletter),
  CAPTCHA_MIN_FILL_MS: wholeNumber(0, 60_000, 'must be a whole number of milliseconds from 0 to 60000').default(DEFAULT_MIN_FILL_MS),
  TRUST_PROXY: z
    .string()
    .superRefine((value, ctx) => {
      if (value === 'false' || /^\d{1,3}$/.test(value)) return;
      const items = value.split(',').map((item) => item.trim());
      if (!items.every((item) => trustedRange(item) !== null)) {
        ctx.addIssue({ code: 'custom', message: 'must name the proxy addresses to trust as a comma list of IPs or CIDRs (such as 127.0.0.1 or 172.17.0.1), or be a hop count or false' });
      } else if (items.some(trustsNearlyEveryone)) {
        ctx.addIssue({
          code: 'custom',
          message: `must not trust "${items.find(trustsNearlyEveryone)}": a range shorter than /${MIN_TRUSTED_PREFIX} trusts nearly every address, so any client could forge X-Forwarded-For and escape the rate limits; name the proxy's own address or network, such as 172.17.0.1 or 10.0.0.0/8`,
        });
      }
    })
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
  WEBHOOK_URL: z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an https:// URL such as https://crm.example.com/hooks/forms').optional(),
  WEBHOOK_SECRET: webhookSecret.optional(),
  WEBHOOKS_FILE: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1'], 'must be 1 (allow endpoints on private or loopback addresses) or 0').transform((value) => value === '1').default(false),
  WEBHOOK_TIMEOUT_MS: wholeNumber(1000, 60_000, 'must be a whole number of milliseconds from 1000 to 60000').default(10_000),
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


const mailDomain = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

// DMARC's relaxed alignment: the signing domain is the address's domain or one of its parents.
function signsFor(domain: string, address: string): boolean {
  const from = mailDomain(address);
  return from === domain || from.endsWith(`.${domain}`);
}

// Settings that are each valid but wrong together; one line each, like the schema's.
export function conflicts(e: z.output<typeof envSchema>): string[] {
  const errors: string[] = [];
  if (typeof e.TRUST_PROXY === 'number' && e.TRUST_PROXY > 0 && !isLoopbackHost(e.HOST)) {
    errors.push(
      `TRUST_PROXY must name the proxy addresses (such as 172.17.0.1) when HOST is not a loopback address: with a hop count any client that connects directly can forge X-Forwarded-For and escape the rate limit (got "${e.TRUST_PROXY}" with HOST "${e.HOST}")`,
    );
  }
  const dkim = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE];
  if (dkim.some((value) => value !== undefined) && dkim.some((value) => value === undefined)) {
    errors.push('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE must be set together (signing needs all three) or not at all');
  } else if (e.DKIM_DOMAIN !== undefined && !signsFor(e.DKIM_DOMAIN, e.MAIL_FROM.address)) {
    errors.push(
      `DKIM_DOMAIN must be the domain of MAIL_FROM's address or a parent of it, or receivers find the signature does not align with the sender (got "${e.DKIM_DOMAIN}" with MAIL_FROM at "${mailDomain(e.MAIL_FROM.address)}")`,
    );
  }
  if (e.RATE_LIMIT_IPV6_48_FACTOR < e.RATE_LIMIT_IPV6_56_FACTOR) {
    errors.push(
      `RATE_LIMIT_IPV6_48_FACTOR must not be below RATE_LIMIT_IPV6_56_FACTOR: a /48 holds 256 /56s, so it shares at least what one of them does (got ${e.RATE_LIMIT_IPV6_48_FACTOR} and ${e.RATE_LIMIT_IPV6_56_FACTOR})`,
    );
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    errors.push(
      `HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS, which covers the headers too (got ${e.HEADERS_TIMEOUT_MS} and ${e.REQUEST_TIMEOUT_MS})`,
    );
  }
  return errors;
}

/** The environment variables the service reads, all optional. */
type IngestEnv = Partial<Record<(typeof VARIABLES)[number], string>>;
