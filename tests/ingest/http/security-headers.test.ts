/**
 * The API's security headers: the strict set on every answer, and Strict-Transport-Security only
 * once the operator turns it on (`HSTS_MAX_AGE`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../ingest/config.ts';
import { SECURITY_HEADERS } from '../../../ingest/http/security-headers.ts';
import { startService } from '../../../ingest/server.ts';
import { configFor, postJson, signup, type TestApp, tempDir, testApp } from '../fixtures.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A success, an error and a 404 of the app. */
async function answers(app: TestApp['app']) {
  return [await postJson(app, '/api/newsletter', signup()), await postJson(app, '/api/newsletter', {}), await app.inject('/missing')];
}

describe('the API\'s security headers', () => {
  it('regression: sends no HSTS before the operator has enabled it (it pinned the site\'s whole host to HTTPS for a year)', async () => {
    t = await testApp();
    for (const res of await answers(t.app)) {
      expect(res.headers['strict-transport-security']).toBeUndefined();
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
    }
  });

  it('sends HSTS with the configured max-age on every answer once HSTS_MAX_AGE is set, through the service as deployed', async () => {
    const temp = tempDir();
    const service = await startService(configFor(temp.dir, { HSTS_MAX_AGE: '31536000', LOG_LEVEL: 'silent' }));
    try {
      for (const res of await answers(service.app)) expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await service.close();
      temp.remove();
    }
  });

  it('reads HSTS_MAX_AGE as whole seconds up to two years; unset means no header', () => {
    expect(resolveConfig({}, '/')).toMatchObject({ ok: true, config: { hstsMaxAge: null } });
    expect(resolveConfig({ HSTS_MAX_AGE: '0' }, '/')).toMatchObject({ ok: true, config: { hstsMaxAge: 0 } });
    for (const bad of ['1y', '-1', '63072001', 'max-age=31536000']) {
      expect(resolveConfig({ HSTS_MAX_AGE: bad }, '/')).toEqual({
        ok: false,
        errors: [`HSTS_MAX_AGE must be a whole number of seconds from 0 to 63072000 (two years), such as 31536000 for a year (got "${bad}")`],
      });
    }
  });
});
