/**
 * The API's JSON body parser: Fastify's own (same `__proto__` and `constructor` refusals), but only
 * for bodies that are UTF-8, as RFC 8259 requires of JSON exchanged between systems.
 *
 * A declared `charset` other than UTF-8 (`latin1`, `utf-16`, …) is answered 415
 * `unsupported_media_type`; bytes that are not well-formed UTF-8 are answered 400 `malformed_json`.
 * Fastify alone decodes every body as UTF-8 whatever it declares and turns broken bytes into
 * U+FFFD, so both were accepted and stored mangled. `declaresUtf8` is the pure decision; the plugin
 * replaces the `application/json` parser of the whole app.
 */
import { errorCodes, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// The labels the WHATWG Encoding Standard maps to UTF-8 that clients actually send.
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/**
 * The `charset` parameter of a Content-Type header, lower-cased and unquoted, or null without one.
 *
 * @example charsetOf('application/json; charset="UTF-8"') // → 'utf-8'
 * charsetOf('application/json') // → null
 */
function charsetOf(contentType: string | undefined): string | null {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return parameter.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase();
  }
  return null;
}

/** Tells whether a Content-Type header allows a UTF-8 body: no charset, or a UTF-8 label. */
function declaresUtf8(contentType: string | undefined): boolean {
  const charset = charsetOf(contentType);
  return charset === null || UTF8_LABELS.has(charset);
}

async function jsonBody(app: FastifyInstance): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // `fatal` makes ill-formed bytes throw instead of becoming U+FFFD; a leading BOM is dropped.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const contentType = request.headers['content-type'];
    if (!declaresUtf8(contentType)) {
      done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(contentType), undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/** The plugin that makes the app's `application/json` parser refuse bodies that are not UTF-8. */
export const jsonBodyPlugin = fp(jsonBody, { name: 'ingest-json-body', fastify: '5.x' });
