/**
 * The one catalogue of ingest errors.
 *
 * `ERROR_CODES` are the HTTP API's answers: a permanent code (clients and the site's islands
 * switch on it, so never rename one), the HTTP status, and a message saying what happened, why,
 * and what to do. `OPERATOR_ERRORS` are what the `ingest` CLI prints to an operator, with the
 * process exit code. Both are plain data so the browser bundle can import the HTTP half.
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
  payload_too_large: {
    status: 413,
    message: 'The request body is larger than the 32 KB limit. Shorten the fields and send again.',
  },
  unsupported_media_type: {
    status: 415,
    message: 'Only JSON bodies are accepted. Send the form with Content-Type: application/json.',
  },
  already_subscribed: {
    status: 409,
    message: 'This email address is already subscribed to the newsletter. Nothing more to do.',
  },
  captcha_failed: {
    status: 422,
    message:
      'The captcha answer is wrong, or its challenge expired or was already used. Fetch a new one from GET /api/captcha and answer it.',
  },
  rate_limited: {
    status: 429,
    message: 'Too many requests from this address. Wait the number of seconds in Retry-After, then try again.',
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

/** Every error the `ingest` CLI can stop with; `exit` is the process exit code. */
export const OPERATOR_ERRORS = {
  config_invalid: {
    exit: 2,
    message: 'A configuration variable has a bad value; the line above names it and what is expected.',
  },
  postgres_unsupported: {
    exit: 2,
    message:
      'DATABASE_URL points at PostgreSQL, which this build does not support yet. Use sqlite:PATH or a file path.',
  },
  option_invalid: {
    exit: 2,
    message: 'A command-line option has a bad value; run `ingest help <command>` for the accepted forms.',
  },
  migration_failed: {
    exit: 1,
    message: 'A database migration failed and was rolled back. Fix the cause shown above and run `ingest migrate`.',
  },
  listen_failed: {
    exit: 1,
    message: 'The service could not listen on HOST:PORT (taken or not allowed). Stop the other process or set PORT to a free port.',
  },
  database_unavailable: {
    exit: 1,
    message: 'The database file could not be opened. Check DATABASE_URL, DATA_DIR and the directory permissions.',
  },
} as const satisfies Record<string, { exit: number; message: string }>;

/** A permanent operator error code such as `'config_invalid'`. */
export type OperatorErrorCode = keyof typeof OPERATOR_ERRORS;

/** An expected operator-facing failure: the CLI prints `detail` and the catalogue message, then exits with the catalogue's code. */
export class OperatorError extends Error {
  readonly code: OperatorErrorCode;
  readonly detail: string;

  constructor(code: OperatorErrorCode, detail: string) {
    super(`${detail}\n${OPERATOR_ERRORS[code].message}`);
    this.name = 'OperatorError';
    this.code = code;
    this.detail = detail;
  }
}
