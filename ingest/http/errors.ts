/**
 * Every error answer in the one shape `{ error: { code, message, fields? } }`: validation
 * failures, Fastify's own refusals (wrong content type, broken JSON, too large), unknown routes,
 * rate limiting and failures on our side.
 *
 * `errorCodeFor` is the pure decision (which catalogue code an error becomes); the plugin only
 * turns that into a reply. Client errors are logged at info without their text (a JSON parse
 * message can quote the body); server errors are logged at error level with the stack.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody, FieldIssues, Validation } from '../contract/schemas.ts';
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.ts';
import { isStorageUnavailable } from '../store/storage-errors.ts';

const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
};

/** Maps anything thrown while handling a request to its catalogue code: `errorCodeFor({ statusCode: 429 })` → `'rate_limited'`. */
export function errorCodeFor(error: object): ErrorCode {
  const { code: rawCode, statusCode } = error as { code?: unknown; statusCode?: unknown };
  const code = typeof rawCode === 'string' ? rawCode : '';
  const mapped = FASTIFY_CODES[code];
  if (mapped !== undefined) return mapped;
  if (isStorageUnavailable(error)) return 'unavailable';
  const status = typeof statusCode === 'number' ? statusCode : 500;
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status >= 400 && status < 500) return 'bad_request';
  if (status === 503) return 'unavailable';
  return 'internal';
}

/** The error body for `code`: `errorBody('invalid', { email: 'email' })`. */
function errorBody(code: ErrorCode, fields?: FieldIssues, message?: string): ErrorBody {
  return { error: { code, message: message ?? ERROR_CODES[code].message, ...(fields === undefined ? {} : { fields }) } };
}

/** Answers `code` with its status and body. */
export function sendError(reply: FastifyReply, code: ErrorCode, fields?: FieldIssues, message?: string): FastifyReply {
  if (code === 'unavailable') reply.header('retry-after', '5');
  return reply.code(ERROR_CODES[code].status).send(errorBody(code, fields, message));
}

/** Answers 400 `invalid` for a failed validation, naming unexpected fields or a non-object body in the message. */
export function sendInvalid(reply: FastifyReply, failure: Extract<Validation<unknown>, { ok: false }>): FastifyReply {
  const base = ERROR_CODES.invalid.message;
  const message = failure.notAnObject
    ? `The body must be one JSON object holding the form's fields. ${base}`
    : failure.unexpected.length > 0
      ? `Unexpected field(s): ${failure.unexpected.join(', ')}; remove them. ${base}`
      : base;
  return sendError(reply, 'invalid', failure.fields, message);
}

async function httpErrors(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const code = errorCodeFor(error);
    const status = ERROR_CODES[code].status;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ errorCode: code, fastifyCode: error.code }, 'request refused');
    return sendError(reply, code);
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, 'not_found'));
}

/** The plugin installing the error handler and the not-found handler on the whole app. */
export const httpErrorsPlugin = fp(httpErrors, { name: 'ingest-http-errors', fastify: '5.x' });
