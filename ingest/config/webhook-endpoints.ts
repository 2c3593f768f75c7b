/**
 * The webhook endpoints an operator configures, validated once at start-up: one endpoint through
 * `WEBHOOK_URL` and `WEBHOOK_SECRET` (named `default`, every event), or several through the JSON
 * file `WEBHOOKS_FILE`:
 *
 *   { "endpoints": [
 *       { "name": "crm", "url": "https://crm.example.com/hooks/forms", "secret": "whsec_…", "events": ["contact.received", "person.erased"] },
 *       { "name": "newsletter", "url": "https://lists.example.com/hooks", "secrets": ["whsec_new…", "whsec_old…"] } ] }
 *
 * `events` defaults to every type; `secrets` (two during a rotation: each delivery is signed with
 * both) or `secret`. An endpoint must be HTTPS. One on a private or loopback address (an IP
 * literal or `localhost`, where plain HTTP is allowed too) is refused unless
 * `WEBHOOK_ALLOW_PRIVATE=1`: configuration must not turn the service into a way into the internal
 * network. A host name is checked again when each delivery resolves it (`webhooks/address-guard.ts`).
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract/webhook-events.ts';
import { isPrivateAddress } from './private-address.ts';

/** One endpoint as the service uses it. */
export interface WebhookEndpoint {
  name: string;
  url: string;
  /** One, or two during a rotation (newest first); each `whsec_…`. */
  secrets: string[];
  events: WebhookEventType[];
}

/** The webhook settings: the endpoints, whether private addresses are allowed, and how long a delivery may take. */
export interface WebhooksConfig {
  endpoints: WebhookEndpoint[];
  allowPrivate: boolean;
  timeoutMs: number;
}

/** `whsec_` and the base64 of 24 to 64 random bytes, as the Standard Webhooks specification defines a secret. */
const secret = z.string().refine((value) => {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (match === null) return false;
  const bytes = Buffer.from(match[1]!, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}, 'must be whsec_ followed by the base64 of 24 to 64 random bytes (for example: echo whsec_$(openssl rand -base64 32))');

const endpointSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be a short name of lower-case letters, digits, - and _ (such as crm)'),
    url: z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an https:// URL'),
    secret: secret.optional(),
    secrets: z.array(secret).min(1).max(2, 'holds one secret, or two during a rotation').optional(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES, `must list event types among ${WEBHOOK_EVENT_TYPES.join(', ')}`)).min(1).optional(),
  })
  .refine((endpoint) => (endpoint.secret === undefined) !== (endpoint.secrets === undefined), 'needs "secret" or "secrets" (not both)');

const fileSchema = z.strictObject({
  endpoints: z
    .array(endpointSchema)
    .refine((list) => new Set(list.map((endpoint) => endpoint.name)).size === list.length, 'must give each endpoint its own name'),
});

/** What the environment says about webhooks (parsed by `env-schema.ts`). */
export interface WebhookVariables {
  WEBHOOK_URL?: string | undefined;
  WEBHOOK_SECRET?: string | undefined;
  WEBHOOKS_FILE?: string | undefined;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_TIMEOUT_MS: number;
}

/** The schema of `WEBHOOK_SECRET` (the same rule as a file's secrets). */
export const webhookSecret = secret;

/**
 * Resolves the endpoints from the variables (reading `WEBHOOKS_FILE` from `path`); errors are one
 * line each, naming the variable or the file and endpoint.
 *
 * @example resolveWebhooks({ WEBHOOK_URL: 'http://10.0.0.5/h', WEBHOOK_SECRET: s, WEBHOOK_ALLOW_PRIVATE: false, … }, read)
 *   // → { ok: false, errors: ['WEBHOOK_URL is on a private or loopback address (10.0.0.5): set WEBHOOK_ALLOW_PRIVATE=1 if that is meant'] }
 */
export function resolveWebhooks(
  e: WebhookVariables,
  path: string | null,
  read: (path: string) => string = (file) => readFileSync(file, 'utf8'),
): { ok: true; webhooks: WebhooksConfig } | { ok: false; errors: string[] } {
  const base = { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, timeoutMs: e.WEBHOOK_TIMEOUT_MS };
  if (e.WEBHOOK_URL !== undefined || e.WEBHOOK_SECRET !== undefined) {
    if (e.WEBHOOKS_FILE !== undefined) return { ok: false, errors: ['WEBHOOK_URL and WEBHOOKS_FILE must not be set together: name the one endpoint in the file, or use the two variables without a file'] };
    if (e.WEBHOOK_URL === undefined || e.WEBHOOK_SECRET === undefined) return { ok: false, errors: ['WEBHOOK_URL and WEBHOOK_SECRET must be set together (every delivery is signed) or not at all'] };
    const endpoint: WebhookEndpoint = { name: 'default', url: e.WEBHOOK_URL, secrets: [e.WEBHOOK_SECRET], events: [...WEBHOOK_EVENT_TYPES] };
    const problem = urlProblem(endpoint.url, e.WEBHOOK_ALLOW_PRIVATE);
    return problem === null ? { ok: true, webhooks: { ...base, endpoints: [endpoint] } } : { ok: false, errors: [`WEBHOOK_URL ${problem}`] };
  }
  if (path === null) return { ok: true, webhooks: { ...base, endpoints: [] } };
  let json: unknown;
  try {
    json = JSON.parse(read(path));
  } catch (error) {
    return { ok: false, errors: [`WEBHOOKS_FILE ${path} cannot be read as JSON: ${(error as Error).message}`] };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((issue) => `WEBHOOKS_FILE ${path}: ${issue.path.join('.') || 'the file'} ${issue.message}`) };
  }
  const endpoints = parsed.data.endpoints.map((endpoint) => ({
    name: endpoint.name,
    url: endpoint.url,
    secrets: endpoint.secrets ?? [endpoint.secret!],
    events: endpoint.events ?? [...WEBHOOK_EVENT_TYPES],
  }));
  const errors = endpoints.flatMap((endpoint) => {
    const problem = urlProblem(endpoint.url, e.WEBHOOK_ALLOW_PRIVATE);
    return problem === null ? [] : [`WEBHOOKS_FILE ${path}: endpoint ${endpoint.name}'s url ${problem}`];
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, webhooks: { ...base, endpoints } };
}

/**
 * Why `url` cannot be an endpoint, or null: HTTPS, except on a private or loopback address,
 * which needs `allowPrivate` (and may then be plain HTTP).
 */
function urlProblem(url: string, allowPrivate: boolean): string | null {
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password (the signature authenticates us)';
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const isPrivate = host.toLowerCase() === 'localhost' || (isIP(host) !== 0 && isPrivateAddress(host));
  if (isPrivate && !allowPrivate) return `is on a private or loopback address (${host}): set WEBHOOK_ALLOW_PRIVATE=1 if that is meant`;
  if (parsed.protocol !== 'https:' && !isPrivate) return 'must be an https:// URL (plain http is allowed only on a private or loopback address, with WEBHOOK_ALLOW_PRIVATE=1)';
  return null;
}
