/**
 * The HTTP API's half of the ingest error catalogue (the operator half is `operator-errors.ts`):
 * a permanent code (clients and the site's islands switch on it, so never rename one), the HTTP
 * status, and a message saying what happened, why, and what to do. Plain data, so the browser
 * bundle can import it.
 */

/** Every error the HTTP API can answer, keyed by its permanent code. */
export const ERROR_CODES = {
  invalid: {
    status: 400,
    message: 'Some fields are missing or invalid; `fields` names each one. Correct them and send again.',
  },
  malformed_json: {
    status: 400,
    message: 'The request body is not valid JSON. Send one JSON object encoded as UTF-8.',
  },
  bad_request: {
    status: 400,
    message: 'The request could not be understood (bad URL, header or encoding). Check how it is built.',
  },
  not_found: {
    status: 404,
    message:
      'No such endpoint. The API offers POST /api/newsletter, GET /api/captcha, POST /api/contact, GET /healthz and GET /readyz.',
  },
  request_timeout: {
    status: 408,
    message: 'The request did not arrive in time (headers within 10 s, the whole request within 30 s by default). Send it again in one go.',
  },
  payload_too_large: {
    status: 413,
    message: 'The request body is larger than the 32 KB limit. Shorten the fields and send again.',
  },
  unsupported_media_type: {
    status: 415,
    message:
      'Only JSON bodies encoded as UTF-8 are accepted (and, on the newsletter link routes, application/x-www-form-urlencoded). Send the form with Content-Type: application/json, without a charset or with charset=utf-8.',
  },
  origin_not_allowed: {
    status: 403,
    message:
      'The request was sent from a web page on another origin that this service does not accept (its Origin header is neither the site\'s nor one of ALLOWED_ORIGINS); nothing was stored or counted. Send it from the site, or ask the operator to add that origin to ALLOWED_ORIGINS.',
  },
  link_invalid: {
    status: 400,
    message: 'The link is not valid (mistyped, cut off or not made by this service). Nothing was changed.',
  },
  link_expired: {
    status: 410,
    message: 'The confirmation link has expired and the signup was not confirmed. Sign up again to get a new link.',
  },
  captcha_failed: {
    status: 422,
    message:
      'The captcha answer is wrong, or its challenge expired or was already used (any answer, right or wrong, uses it up). Fetch a new one from GET /api/captcha and answer it.',
  },
  captcha_too_fast: {
    status: 422,
    message:
      'The form was sent sooner after its captcha challenge was issued than a person could fill it in (the challenge says how long, `minFillMs`), and the challenge is now used up. Fetch a new one from GET /api/captcha, wait that long, and send again.',
  },
  rate_limited: {
    status: 429,
    message: 'Too many requests from this address. Wait the number of seconds in Retry-After, then try again.',
  },
  busy: {
    status: 429,
    message:
      'This form takes no more posts for now: it has received as many as it accepts in an hour from all visitors together, and nothing was stored. Wait the number of seconds in Retry-After, then try again.',
  },
  internal: {
    status: 500,
    message: 'Something failed on our side and was logged. Please try again later.',
  },
  unavailable: {
    status: 503,
    message: 'The service is starting, stopping or cannot reach its database. Try again in a few seconds.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

/** A permanent HTTP error code such as `'invalid'` or `'captcha_failed'`. */
export type ErrorCode = keyof typeof ERROR_CODES;
