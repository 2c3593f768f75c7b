/**
 * The service's defaults where the code that applies them is not the configuration: the form
 * routes and the app fall back to these when built without a setting (tests, the bench), and the
 * environment schema offers them as the variables' defaults, so the two never disagree.
 */

/** How soon after a captcha challenge was issued an answer is accepted (`CAPTCHA_MIN_FILL_MS`). */
export const DEFAULT_MIN_FILL_MS = 3000;

/** Contact posts a client IP may make per 24 h (`RATE_LIMIT_CONTACT_DAILY_MAX`). */
export const DEFAULT_CONTACT_DAILY_MAX = 50;

/** Newsletter signups a client IP may make per 24 h (`RATE_LIMIT_NEWSLETTER_DAILY_MAX`). */
export const DEFAULT_NEWSLETTER_DAILY_MAX = 50;

/**
 * How long a client may take (ms): 10 s for the headers, 30 s for the whole request (a form body
 * is at most 32 KB), 72 s idle — above the 60 s a reverse proxy such as nginx keeps an idle
 * upstream connection, so the proxy, not ingest, closes it first and never sends a request into
 * a closing connection.
 */
export const DEFAULT_TIMEOUTS = Object.freeze({ headersMs: 10_000, requestMs: 30_000, idleMs: 72_000 });
