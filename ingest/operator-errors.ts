/**
 * The operator half of the ingest error catalogue (the HTTP half is `contract/error-codes.ts`):
 * what the `ingest` CLI prints to an operator, with the process exit code.
 */

/** Every error the `ingest` CLI can stop with; `exit` is the process exit code. */
export const OPERATOR_ERRORS = {
  config_invalid: {
    exit: 2,
    message: 'A configuration variable has a bad value; the line above names it and what is expected.',
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
    message:
      'The database could not be opened or reached. Check DATABASE_URL and DATA_DIR: the file and its folder permissions, or the PostgreSQL server, its user and password.',
  },
  content_invalid: {
    exit: 2,
    message:
      'The site content the service reads (CONTENT_DIR: site.json and locales/<lang>.json with their `mail` section) is missing or invalid; run `npm run check` in the site project, or point CONTENT_DIR at the content folder.',
  },
  dkim_key_invalid: {
    exit: 2,
    message:
      'The DKIM signing key (DKIM_PRIVATE_KEY_FILE) cannot be used. Point it at a readable RSA private key in PEM form (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048), or unset the three DKIM_ variables to send unsigned.',
  },
  webhook_test_failed: {
    exit: 1,
    message:
      'The webhook endpoint did not accept the signed ping. Check its URL, that it is reachable from this host, and that it verifies with the same whsec_ secret; the line above has its answer.',
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
