/**
 * The contract the site's islands share: issue codes, normalisation, limits, and that it stays
 * small and free of Node-only imports.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { regexes } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import {
  contactSchema,
  EMAIL_PATTERN,
  ERROR_CODES,
  fieldIssues,
  honeypotFilled,
  ISSUE_CODES,
  LIMITS,
  newsletterSchema,
  validate,
} from '../../../ingest/contract/schemas.ts';
import { COUNTRY_CODES, isCountryCode } from '../../../ingest/contract/countries.ts';
import { contact, signup } from '../fixtures.ts';

const withCaptcha = (overrides: Record<string, unknown> = {}) => contact({ captcha: { token: 't', answer: 3 }, ...overrides });

describe('contract', () => {
  it('uses exactly the eight issue codes the site translates', () => {
    expect([...ISSUE_CODES].sort()).toEqual(['captcha', 'consent', 'country', 'email', 'invalidChars', 'invisibleChars', 'required', 'tooLong']);
  });

  it('produces every issue code for some input', () => {
    const seen = new Set(
      [
        fieldIssues(newsletterSchema, signup({ name: '', email: 'x', privacyConsent: false })),
        fieldIssues(newsletterSchema, signup({ name: 'x'.repeat(101), email: 'a\u0000@b.co' })),
        fieldIssues(contactSchema, withCaptcha({ country: 'qq', captcha: null, companyName: 'Acme\u200B' })),
      ].flatMap((issues) => Object.values(issues)),
    );
    expect([...seen].sort()).toEqual([...ISSUE_CODES].sort());
  });

  it('reports the first issue per field, as documented', () => {
    expect(fieldIssues(newsletterSchema, { name: '', email: 'x', privacyConsent: false, marketingConsent: true, lang: 'en' })).toEqual({
      name: 'required',
      email: 'email',
      privacyConsent: 'consent',
    });
    expect(fieldIssues(newsletterSchema, signup())).toEqual({});
  });

  it('trims, NFC-normalises, lower-cases the email domain and folds CR LF in the message', () => {
    const result = validate(contactSchema, withCaptcha({
      firstName: '  Zoe\u0308 ',
      email: ' Zoe@Example.ORG ',
      country: ' GB ',
      message: ' one\r\ntwo\rthree\ttab ',
      phone: '   ',
      companyName: undefined,
    }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      firstName: 'Zoë',
      email: 'Zoe@example.org',
      country: 'gb',
      message: 'one\ntwo\nthree\ttab',
      phone: null,
      companyName: null,
    });
    expect(result.data.firstName).toHaveLength(3);
  });

  it('counts limits after normalisation and accepts exactly the limit', () => {
    expect(fieldIssues(newsletterSchema, signup({ name: ` ${'n'.repeat(LIMITS.name)} ` }))).toEqual({});
    expect(fieldIssues(contactSchema, withCaptcha({ message: 'm'.repeat(LIMITS.message) }))).toEqual({});
    expect(fieldIssues(contactSchema, withCaptcha({ phone: '1'.repeat(LIMITS.phone + 1) }))).toEqual({ phone: 'tooLong' });
  });

  it('regression: 51 emoji do not pass the 100-unit name limit', () => {
    // Each of these emoji is two UTF-16 units, as the form's maxlength counts them.
    expect(fieldIssues(newsletterSchema, signup({ name: '\u{1F600}'.repeat(51) }))).toEqual({ name: 'tooLong' });
    expect(fieldIssues(newsletterSchema, signup({ name: '\u{1F600}'.repeat(50) }))).toEqual({});
    expect(fieldIssues(contactSchema, withCaptcha({ message: '\u{1F600}'.repeat(LIMITS.message / 2 + 1) }))).toEqual({ message: 'tooLong' });
    expect(fieldIssues(contactSchema, withCaptcha({ phone: '\u{1D7CE}'.repeat(LIMITS.phone / 2 + 1) }))).toEqual({ phone: 'tooLong' });
  });

  it('regression: a lone surrogate is refused in every text field instead of being stored as invalid UTF-8', () => {
    const lone = 'A\uD800B';
    expect(fieldIssues(newsletterSchema, signup({ name: lone }))).toEqual({ name: 'invalidChars' });
    expect(fieldIssues(newsletterSchema, signup({ name: 'A\uDC00' }))).toEqual({ name: 'invalidChars' });
    expect(fieldIssues(newsletterSchema, signup({ email: `a${'\uD800'}@b.co` }))).toEqual({ email: 'invalidChars' });
    expect(fieldIssues(contactSchema, withCaptcha({ lastName: lone, companyName: lone, phone: lone, message: lone }))).toEqual({
      lastName: 'invalidChars',
      companyName: 'invalidChars',
      phone: 'invalidChars',
      message: 'invalidChars',
    });
    // A well-formed pair is one character and stays welcome.
    expect(fieldIssues(newsletterSchema, signup({ name: 'Ana \u{1F600}' }))).toEqual({});
  });

  it('regression: zero-width and tag characters in names are refused as invisible, the message keeps emoji sequences', () => {
    for (const name of ['Ana\u200BPérez', 'Ana\u200DPérez', 'An\u00ADa', '\u2060Ana', 'Ana\u{E0041}\u{E007F}', 'Ana\u200E']) {
      expect(fieldIssues(newsletterSchema, signup({ name })), JSON.stringify(name)).toEqual({ name: 'invisibleChars' });
    }
    expect(fieldIssues(contactSchema, withCaptcha({ firstName: 'A\u200Bna', companyName: 'Acme\uFEFFDatos', email: 'ana\u200B@example.com' }))).toEqual({
      firstName: 'invisibleChars',
      companyName: 'invisibleChars',
      email: 'invisibleChars',
    });
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(fieldIssues(contactSchema, withCaptcha({ message: `Hello from the whole team ${family}` }))).toEqual({});
  });

  it('names unexpected fields instead of ignoring them', () => {
    const result = validate(newsletterSchema, signup({ id: 1, created_at: 'now' }));
    expect(result).toMatchObject({ ok: false, unexpected: ['id', 'created_at'] });
  });

  it('treats any non-blank honeypot as a bot', () => {
    expect(honeypotFilled(signup({ website: 'x' }))).toBe(true);
    expect(honeypotFilled(signup({ website: '  ' }))).toBe(false);
    expect(honeypotFilled(signup())).toBe(false);
    expect(honeypotFilled(null)).toBe(false);
  });

  it('keeps its email pattern identical to zod\'s', () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
  });

  it('knows the 249 assigned ISO 3166-1 alpha-2 codes, each with a name in Intl', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) expect(names.of(code.toUpperCase())).not.toBe(code.toUpperCase());
    expect(['de', 'es', 'gb', 'us', 'ss', 'xk', 'uk', 'eu'].map(isCountryCode)).toEqual([true, true, true, true, true, false, false, false]);
  });

  it('documents every error code with a status and a message saying what to do', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.message.split('. ').length, code).toBeGreaterThanOrEqual(2);
    }
  });

  it('imports nothing Node-only and bundles for the browser under 12 KB gzip', async () => {
    const result = await build({
      stdin: { contents: "export * from './ingest/contract/schemas.ts';", resolveDir: new URL('../../..', import.meta.url).pathname, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    });
    const gzip = gzipSync(result.outputFiles[0]!.contents).length;
    expect(gzip).toBeLessThan(12 * 1024);
  });
});
