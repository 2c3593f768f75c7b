/**
 * The service's pino logger options: structured JSON lines that never contain a visitor's
 * email address, phone number or message.
 *
 * The code never logs bodies or rows; as a second line of defence, fields named like personal
 * data are redacted at the top level and one level down, request URLs are logged without their
 * query string, and bodies and headers are never serialised. Client IP addresses are not logged
 * at any level: the service uses them only in memory, for rate limiting (data minimisation, as
 * the privacy policy promises). Fastify builds the logger from
 * these options; the outbox worker logs through the same instance (`app.log`).
 */
import type { FastifyServerOptions } from 'fastify';

/** Fastify's `logger` option in its object form. */
export type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

const PERSONAL_FIELDS = ['email', 'phone', 'message', 'body', 'firstName', 'lastName', 'companyName'];

/** A writable the logger can write its JSON lines to (tests pass one to capture them). */
export interface LogStream {
  write(line: string): void;
}

/** Fastify `logger` options with the redaction and serializers described above. */
export function loggerOptions(level: string, stream?: LogStream): LoggerOptions {
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    redact: { paths: PERSONAL_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      // An error's text goes out as `reason`, so redacting `*.message` never hides it.
      err: (err: Error) => ({
        type: err.name,
        code: (err as { code?: unknown }).code,
        statusCode: (err as { statusCode?: unknown }).statusCode,
        reason: err.message,
        stack: err.stack,
      }),
      // Fastify's type insists the error keeps a `message` key, which the redaction would blank.
    } as unknown as LoggerOptions['serializers'],
  };
}
