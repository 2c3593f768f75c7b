import type { ErrorBody } from '../../../ingest/contract/schemas.ts';

/** The answer of the ingest service, or `network` when no answer arrived at all. */
export type ApiAnswer =
  | { kind: 'ok'; status: number; body: unknown }
  | { kind: 'error'; status: number; error: ErrorBody['error'] | null }
  | { kind: 'network' };

async function call(url: string, init: RequestInit): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch {
    return { kind: 'network' };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { kind: 'ok', status: response.status, body };
  const error = (body as Partial<ErrorBody> | null)?.error ?? null;
  return { kind: 'error', status: response.status, error };
}

/** POSTs a JSON body to the ingest service. */
export function postJson(url: string, body: unknown): Promise<ApiAnswer> {
  return call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** GETs a JSON resource from the ingest service. */
export function getJson(url: string): Promise<ApiAnswer> {
  return call(url, { method: 'GET', cache: 'no-store' });
}

/**
 * Fills `{{name}}` placeholders of a translated message on the client.
 *
 * @example format('At most {{max}} characters', { max: 100 }) // 'At most 100 characters'
 */
export function format(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(values[name] ?? whole));
}
