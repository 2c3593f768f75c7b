import { describe, expect, it } from 'vitest';
import { isPrivateApiPath, tokenFormEndpoint } from '../../../cli/host/api-forwarding.ts';
import { ingestTarget } from '../../../cli/serve/request-target.ts';
import { METRICS_PATHS, NOT_TOKEN_FORM_POSTS, TOKEN_FORM_CASES } from '../serve/token-form-sites.ts';

describe('which POSTs a host forwards to the ingest service', () => {
  it('every token form page of the contract, in all seven languages, to its endpoint without the language', () => {
    expect(TOKEN_FORM_CASES).toHaveLength(21);
    for (const { path, endpoint } of TOKEN_FORM_CASES) expect(tokenFormEndpoint(path), path).toBe(endpoint);
    expect(tokenFormEndpoint('/de/newsletter/unsubscribe')).toBe('/api/newsletter/unsubscribe');
    expect(tokenFormEndpoint('/fr/contact/confirm')).toBe('/api/contact/confirm');
  });

  it('nothing else: other service pages, other spellings, other languages', () => {
    for (const target of NOT_TOKEN_FORM_POSTS) expect(tokenFormEndpoint(target.split('?')[0]!), target).toBeNull();
  });

  it('only POSTs, with the page\'s query; /api paths as they came; never the metrics', () => {
    expect(ingestTarget('POST', '/de/newsletter/confirm', '?token=abc')).toBe('/api/newsletter/confirm?token=abc');
    expect(ingestTarget('POST', '/newsletter/unsubscribe', '')).toBe('/api/newsletter/unsubscribe');
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', undefined]) expect(ingestTarget(method, '/de/newsletter/confirm', '?token=abc'), method).toBeNull();
    expect(ingestTarget('GET', '/api/captcha', '?lang=de')).toBe('/api/captcha?lang=de');
    expect(ingestTarget('POST', '/api/newsletter/confirm', '?token=abc')).toBe('/api/newsletter/confirm?token=abc');
    for (const target of METRICS_PATHS) {
      const [path, query = ''] = target.split('?');
      expect(ingestTarget('GET', path!, query && `?${query}`), target).toBeNull();
    }
  });

  it('private API paths are found after decoding and dot segments, and only under /api/metrics', () => {
    for (const target of METRICS_PATHS) expect(isPrivateApiPath(target.split('?')[0]!), target).toBe(true);
    for (const path of ['/api/newsletter', '/api/captcha', '/api/contact', '/api/x%ZZ', '/metrics', '/api']) expect(isPrivateApiPath(path), path).toBe(false);
  });
});
