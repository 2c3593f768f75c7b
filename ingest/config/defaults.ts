/**
 * The service's defaults where the code that applies them is not the configuration: the form
 * routes and the app fall back to these when built without a setting (tests, the bench), and the
 * environment schema offers them as the variables' defaults, so the two never disagree.
 */

/** How soon after a captcha challenge was issued an answer is accepted (`CAPTCHA_MIN_FILL_MS`). */
export const DEFAULT_MIN_FILL_MS = 3000;

/**
 * Contact posts a client IP may make per 24 h (`RATE_LIMIT_CONTACT_DAILY_MAX`): a few times what a
 * person sends, and a quarter of the hourly ceiling, so no one address can close the form alone.
 */
export const DEFAULT_CONTACT_DAILY_MAX = 5;

/** Newsletter signups a client IP may make per 24 h (`RATE_LIMIT_NEWSLETTER_DAILY_MAX`): an eighth of the hourly ceiling. */
export const DEFAULT_NEWSLETTER_DAILY_MAX = 5;

/**
 * How many times a /64's allowance an IPv6 /56 and /48 share, for every per-client limit
 * (`RATE_LIMIT_IPV6_56_FACTOR`, `RATE_LIMIT_IPV6_48_FACTOR`): a /56 is what a provider hands one
 * home or small office, a /48 one site or organisation (RFC 6177), and either holds many /64s.
 */
export const DEFAULT_IPV6_FACTORS = Object.freeze({ per56: 4, per48: 16 });

/**
 * Posts of each form per hour from all clients together, on every replica
 * (`RATE_LIMIT_CONTACT_HOURLY_CEILING`, `RATE_LIMIT_NEWSLETTER_HOURLY_CEILING`): far above what
 * the site gets, far below what spends a relay's daily quota (docs/security.md argues the numbers).
 */
export const DEFAULT_HOURLY_CEILINGS = Object.freeze({ contact: 20, newsletter: 40 });

/**
 * How long a client may take (ms): 10 s for the headers, 30 s for the whole request (a form body
 * is at most 32 KB), 72 s idle — above the 60 s a reverse proxy such as nginx keeps an idle
 * upstream connection, so the proxy, not ingest, closes it first and never sends a request into
 * a closing connection.
 */
export const DEFAULT_TIMEOUTS = Object.freeze({ headersMs: 10_000, requestMs: 30_000, idleMs: 72_000 });
