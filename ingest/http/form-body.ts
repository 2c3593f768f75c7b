/**
 * `application/x-www-form-urlencoded` bodies, for the routes that plain HTML forms and mail
 * programs post to (RFC 8058's one-click unsubscribe sends `List-Unsubscribe=One-Click` this
 * way). Registered inside those routes' plugin only: every other route keeps reading JSON alone.
 * The body is decoded by the WHATWG URL standard's parser (`URLSearchParams`: UTF-8, `+` as
 * space); a field sent twice keeps its last value. The app's body limit applies.
 */
import type { FastifyInstance } from 'fastify';

/** A decoded form body: field name → value. */
type FormFields = Record<string, string>;

/** Makes `app` (a route plugin's scope) read urlencoded bodies as `FormFields`. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/** True when the request's body was sent as a form (as opposed to JSON, or no body). */
export function isFormPost(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** A text field of a body or query (form or JSON), at most 200 characters; else undefined. */
export function textField(source: unknown, name: string): string | undefined {
  if (source === null || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
}
