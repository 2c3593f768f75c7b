/**
 * Hostile and malformed requests: each one gets the right 4xx in the uniform error shape, and
 * the database is exactly as it was before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge } from '../../../ingest/http/forms/captcha.ts';
import { contact, postJson, SECRET, signup, snapshot, solvedCaptcha, type TestApp, testApp } from '../fixtures.ts';

interface Case {
  name: string;
  url?: string;
  method?: 'POST' | 'GET';
  contentType?: string | null;
  /** A value is sent as JSON; a string or bytes under `raw` are sent as they are. */
  body?: unknown;
  raw?: string | Buffer;
  status: number;
  code: string;
  fields?: Record<string, string>;
}

let t: TestApp;
let used: { token: string; answer: number };
let fresh: () => Promise<{ token: string; answer: number }>;

beforeAll(async () => {
  t = await testApp({ optIn: 'single' });
  // An existing subscriber (for duplicates) and a captcha already spent on a real contact.
  expect((await postJson(t.app, '/api/newsletter', signup({ email: 'taken@example.com' }))).statusCode).toBe(201);
  used = await solvedCaptcha(t.app);
  expect((await postJson(t.app, '/api/contact', contact({ captcha: used }))).statusCode).toBe(201);
  fresh = () => solvedCaptcha(t.app);
});
afterAll(async () => {
  await t.close();
});

const N = '/api/newsletter';
const C = '/api/contact';
const long = (n: number) => 'x'.repeat(n);

function cases(valid: { token: string; answer: number }): Case[] {
  const c = (overrides: Record<string, unknown>) => contact({ captcha: valid, ...overrides });
  const expired = createChallenge(SECRET, Date.now() - 11 * 60_000, 0);
  const [v, issued, nonce, seal, sig] = valid.token.split('.');
  const laterIssue = (Number.parseInt(issued!, 36) + 3_600_000).toString(36);
  return [
    { name: 'text/plain body', contentType: 'text/plain', raw: JSON.stringify(signup()), status: 415, code: 'unsupported_media_type' },
    // A form-encoded body is the plain HTML form's: answered with pages, see plain-form-posts.test.ts.
    { name: 'multipart body', contentType: 'multipart/form-data; boundary=x', raw: '--x\r\n\r\n--x--', status: 415, code: 'unsupported_media_type' },
    { name: 'xml body', contentType: 'application/xml', raw: '<a/>', status: 415, code: 'unsupported_media_type' },
    { name: 'contact as text/plain', url: C, contentType: 'text/plain', raw: JSON.stringify(c({})), status: 415, code: 'unsupported_media_type' },
    { name: 'broken JSON', raw: '{"name": "Ana", ', status: 400, code: 'malformed_json' },
    { name: 'empty JSON body', raw: '', status: 400, code: 'malformed_json' },
    { name: 'single quotes JSON', raw: "{'name': 'x'}", status: 400, code: 'malformed_json' },
    { name: '__proto__ pollution', raw: '{"__proto__": {"admin": true}, "name": "a"}', status: 400, code: 'malformed_json' },
    { name: 'JSON declared charset=latin1', contentType: 'application/json; charset=latin1', raw: Buffer.from(JSON.stringify(signup()), 'latin1'), status: 415, code: 'unsupported_media_type' },
    { name: 'JSON declared charset="ISO-8859-1"', contentType: 'application/json; charset="ISO-8859-1"', raw: JSON.stringify(signup()), status: 415, code: 'unsupported_media_type' },
    { name: 'JSON in UTF-16 declared so', contentType: 'application/json; charset=utf-16', raw: Buffer.from(JSON.stringify(signup()), 'utf16le'), status: 415, code: 'unsupported_media_type' },
    { name: 'contact declared charset=windows-1252', url: C, contentType: 'application/json;charset=windows-1252', raw: JSON.stringify(c({})), status: 415, code: 'unsupported_media_type' },
    { name: 'JSON in UTF-16 without a charset', raw: Buffer.from(`\uFEFF${JSON.stringify(signup())}`, 'utf16le'), status: 400, code: 'malformed_json' },
    { name: 'latin1 bytes without a charset', raw: Buffer.from(JSON.stringify(signup({ name: 'José' })), 'latin1'), status: 400, code: 'malformed_json' },
    { name: 'a UTF-16 surrogate encoded as UTF-8 bytes (CESU)', raw: Buffer.concat([Buffer.from('{"name":"A'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(JSON.stringify(signup()).replace(/^\{"name":"[^"]*"/, '"'))]), status: 400, code: 'malformed_json' },
    { name: 'lone surrogate escape in name', raw: JSON.stringify(signup({ name: 'PLACEHOLDER' })).replace('PLACEHOLDER', 'A\\uD800B'), status: 400, code: 'invalid', fields: { name: 'invalidChars' } },
    { name: 'contact: lone low surrogate escape in message', url: C, raw: JSON.stringify(c({ message: 'PLACEHOLDER' })).replace('PLACEHOLDER', 'hi \\uDE00'), status: 400, code: 'invalid', fields: { message: 'invalidChars' } },
    { name: 'name of 51 emoji (102 UTF-16 units)', body: signup({ name: '\u{1F600}'.repeat(51) }), status: 400, code: 'invalid', fields: { name: 'tooLong' } },
    { name: 'zero-width space in name', body: signup({ name: 'Ana\u200BPérez' }), status: 400, code: 'invalid', fields: { name: 'invisibleChars' } },
    { name: 'contact: tag characters in last name', url: C, body: c({ lastName: 'P\u{E0041}\u{E007F}' }), status: 400, code: 'invalid', fields: { lastName: 'invisibleChars' } },
    { name: 'body too large (40 KB)', body: signup({ name: long(40_000) }), status: 413, code: 'payload_too_large' },
    { name: 'body null', body: null, status: 400, code: 'invalid' },
    { name: 'body an array', body: [signup()], status: 400, code: 'invalid' },
    { name: 'body a string', body: 'subscribe me', status: 400, code: 'invalid' },
    { name: 'body a number', body: 42, status: 400, code: 'invalid' },
    { name: 'name an array', body: signup({ name: ['Ana'] }), status: 400, code: 'invalid', fields: { name: 'required' } },
    { name: 'name null', body: signup({ name: null }), status: 400, code: 'invalid', fields: { name: 'required' } },
    { name: 'name a number', body: signup({ name: 12 }), status: 400, code: 'invalid', fields: { name: 'required' } },
    { name: 'name only spaces', body: signup({ name: '   ' }), status: 400, code: 'invalid', fields: { name: 'required' } },
    { name: 'email missing', body: signup({ email: undefined }), status: 400, code: 'invalid', fields: { email: 'required' } },
    { name: 'email null', body: signup({ email: null }), status: 400, code: 'invalid', fields: { email: 'required' } },
    { name: 'privacy consent false', body: signup({ privacyConsent: false }), status: 400, code: 'invalid', fields: { privacyConsent: 'consent' } },
    { name: 'privacy consent "true"', body: signup({ privacyConsent: 'true' }), status: 400, code: 'invalid', fields: { privacyConsent: 'consent' } },
    { name: 'privacy consent missing', body: signup({ privacyConsent: undefined }), status: 400, code: 'invalid', fields: { privacyConsent: 'consent' } },
    { name: 'marketing consent missing', body: signup({ marketingConsent: undefined }), status: 400, code: 'invalid', fields: { marketingConsent: 'required' } },
    { name: 'unknown language', body: signup({ lang: 'ru' }), status: 400, code: 'invalid', fields: { lang: 'required' } },
    { name: 'name of 101 characters', body: signup({ name: long(101) }), status: 400, code: 'invalid', fields: { name: 'tooLong' } },
    { name: 'email of 255 characters', body: signup({ email: `${long(243)}@example.com` }), status: 400, code: 'invalid', fields: { email: 'tooLong' } },
    { name: 'NUL in name', body: signup({ name: 'An\u0000a' }), status: 400, code: 'invalid', fields: { name: 'invalidChars' } },
    { name: 'escape sequence in name', body: signup({ name: 'Ana\u001b[31m' }), status: 400, code: 'invalid', fields: { name: 'invalidChars' } },
    { name: 'bidi override in name', body: signup({ name: 'Ana\u202Eevil' }), status: 400, code: 'invalid', fields: { name: 'invalidChars' } },
    { name: 'CRLF header injection in name', body: signup({ name: 'Ana\r\nBcc: victim@example.com' }), status: 400, code: 'invalid', fields: { name: 'invalidChars' } },
    { name: 'CRLF header injection in email', body: signup({ email: 'ana@example.com\r\nBcc: victim@example.com' }), status: 400, code: 'invalid', fields: { email: 'invalidChars' } },
    { name: 'two addresses in email', body: signup({ email: 'ana@example.com, victim@example.com' }), status: 400, code: 'invalid', fields: { email: 'email' } },
    { name: 'HTML as email', body: signup({ email: '<script>alert(1)</script>@example.com' }), status: 400, code: 'invalid', fields: { email: 'email' } },
    { name: 'SQL as email', body: signup({ email: "x'; DROP TABLE newsletter;--@example.com" }), status: 400, code: 'invalid', fields: { email: 'email' } },
    { name: 'SQL as language', body: signup({ lang: "en' OR '1'='1" }), status: 400, code: 'invalid', fields: { lang: 'required' } },
    { name: 'extra field id', body: signup({ id: 1 }), status: 400, code: 'invalid' },
    { name: 'extra field created_at', body: signup({ created_at: '2000-01-01' }), status: 400, code: 'invalid' },
    { name: 'language null', body: signup({ lang: null }), status: 400, code: 'invalid', fields: { lang: 'required' } },
    // A signup of a subscribed address is answered 201 like any other (no status oracle): tests/ingest/http/no-oracle.test.ts.
    { name: 'unsubscribe: forged token for an id that does not exist', url: '/api/newsletter/unsubscribe', body: { token: `u.en.999999.0.${'A'.repeat(43)}` }, status: 400, code: 'link_invalid' },
    { name: 'confirm: token id with leading zeros', url: '/api/newsletter/confirm', body: { token: `c.en.01.0.${'A'.repeat(43)}` }, status: 400, code: 'link_invalid' },
    { name: 'contact: unknown country', url: C, body: c({ country: 'xx' }), status: 400, code: 'invalid', fields: { country: 'country' } },
    { name: 'contact: reserved code uk', url: C, body: c({ country: 'uk' }), status: 400, code: 'invalid', fields: { country: 'country' } },
    { name: 'contact: SQL as country', url: C, body: c({ country: "es' --" }), status: 400, code: 'invalid', fields: { country: 'country' } },
    { name: 'contact: country missing', url: C, body: c({ country: undefined }), status: 400, code: 'invalid', fields: { country: 'required' } },
    { name: 'contact: message of 5001 characters', url: C, body: c({ message: long(5001) }), status: 400, code: 'invalid', fields: { message: 'tooLong' } },
    { name: 'contact: bell in message', url: C, body: c({ message: 'hi\u0007' }), status: 400, code: 'invalid', fields: { message: 'invalidChars' } },
    { name: 'contact: phone of 41 characters', url: C, body: c({ phone: '1'.repeat(41) }), status: 400, code: 'invalid', fields: { phone: 'tooLong' } },
    { name: 'contact: CRLF in phone', url: C, body: c({ phone: '600\r\nX-Evil: 1' }), status: 400, code: 'invalid', fields: { phone: 'invalidChars' } },
    { name: 'contact: company of 201 characters', url: C, body: c({ companyName: long(201) }), status: 400, code: 'invalid', fields: { companyName: 'tooLong' } },
    { name: 'contact: CRLF in last name', url: C, body: c({ lastName: 'P\r\nSubject: hi' }), status: 400, code: 'invalid', fields: { lastName: 'invalidChars' } },
    { name: 'contact: captcha missing', url: C, body: c({ captcha: undefined }), status: 400, code: 'invalid', fields: { captcha: 'captcha' } },
    { name: 'contact: captcha answer a string', url: C, body: c({ captcha: { ...valid, answer: String(valid.answer) } }), status: 400, code: 'invalid', fields: { captcha: 'captcha' } },
    { name: 'contact: captcha with extra key', url: C, body: c({ captcha: { ...valid, nonce: 'x' } }), status: 400, code: 'invalid', fields: { captcha: 'captcha' } },
    { name: 'contact: extra field id', url: C, body: c({ id: 7 }), status: 400, code: 'invalid' },
    { name: 'contact: forged token', url: C, body: c({ captcha: { token: `${v}.${issued}.${nonce}.${seal}.${'A'.repeat(43)}`, answer: valid.answer } }), status: 422, code: 'captcha_failed' },
    { name: 'contact: tampered issue time', url: C, body: c({ captcha: { token: `${v}.${laterIssue}.${nonce}.${seal}.${sig}`, answer: valid.answer } }), status: 422, code: 'captcha_failed' },
    // A wrong answer is refused too, but it spends its token (a row): tests/ingest/http/captcha-attempts.test.ts.
    { name: 'contact: expired token', url: C, body: c({ captcha: { token: expired.token, answer: expired.a + expired.b } }), status: 422, code: 'captcha_failed' },
    { name: 'contact: reused token', url: C, body: c({ captcha: used }), status: 422, code: 'captcha_failed' },
    { name: 'contact: garbage token', url: C, body: c({ captcha: { token: '../../etc/passwd', answer: 1 } }), status: 422, code: 'captcha_failed' },
    { name: 'GET on a POST route', method: 'GET', url: N, status: 404, code: 'not_found' },
    { name: 'path traversal', method: 'GET', url: '/api/../../etc/passwd', status: 404, code: 'not_found' },
  ];
}

describe('hostile and malformed requests', () => {
  it('has at least 40 cases', async () => {
    expect(cases(await fresh()).length).toBeGreaterThanOrEqual(40);
  });

  it('answers each with the right 4xx and leaves the database unchanged', async () => {
    const valid = await fresh();
    const failures: string[] = [];
    for (const item of cases(valid)) {
      const before = snapshot(t.db);
      const headers: Record<string, string> = {};
      if (item.contentType !== null) headers['content-type'] = item.contentType ?? 'application/json';
      const payload = item.raw ?? (item.body === undefined ? undefined : JSON.stringify(item.body));
      const res = await t.app.inject({ method: item.method ?? 'POST', url: item.url ?? N, headers, ...(payload === undefined ? {} : { payload }) });
      const body = res.json();
      const problems = [
        res.statusCode !== item.status && `status ${res.statusCode}`,
        body?.error?.code !== item.code && `code ${body?.error?.code}`,
        typeof body?.error?.message !== 'string' && 'no message',
        item.fields !== undefined && JSON.stringify(body.error.fields) !== JSON.stringify(item.fields) && `fields ${JSON.stringify(body.error.fields)}`,
        JSON.stringify(snapshot(t.db)) !== JSON.stringify(before) && 'database changed',
      ].filter(Boolean);
      if (problems.length > 0) failures.push(`${item.name}: ${problems.join(', ')}`);
    }
    expect(failures).toEqual([]);
    // The valid captcha was never spent by the hostile cases: it still works.
    expect((await postJson(t.app, C, contact({ captcha: valid }))).statusCode).toBe(201);
  });

  it('regression: a body declared charset=latin1 or utf-16 is refused with 415, not accepted and mangled', async () => {
    const before = snapshot(t.db);
    const latin1 = await t.app.inject({ method: 'POST', url: N, headers: { 'content-type': 'application/json; charset=latin1' }, payload: Buffer.from(JSON.stringify(signup({ name: 'José', email: 'jose@example.com' })), 'latin1') });
    const utf16 = await t.app.inject({ method: 'POST', url: N, headers: { 'content-type': 'application/json; charset=utf-16' }, payload: Buffer.from(JSON.stringify(signup({ email: 'u16@example.com' })), 'utf16le') });
    for (const res of [latin1, utf16]) {
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ error: { code: 'unsupported_media_type', message: expect.stringContaining('UTF-8') } });
    }
    expect(snapshot(t.db)).toEqual(before);
  });

  it('regression: a lone surrogate is refused with 400 invalidChars, never stored as invalid UTF-8', async () => {
    const before = snapshot(t.db);
    const payload = JSON.stringify(signup({ name: 'PLACEHOLDER', email: 'lone@example.com' })).replace('PLACEHOLDER', 'A\\uD800B');
    const res = await t.app.inject({ method: 'POST', url: N, headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'invalid', fields: { name: 'invalidChars' } } });
    expect(snapshot(t.db)).toEqual(before);
  });

  it('regression: bytes that are not UTF-8 are refused with 400, not stored as U+FFFD', async () => {
    const before = snapshot(t.db);
    const payload = Buffer.from(JSON.stringify(signup({ name: 'José', email: 'bytes@example.com' })), 'latin1');
    const res = await t.app.inject({ method: 'POST', url: N, headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'malformed_json' } });
    expect(snapshot(t.db)).toEqual(before);
  });

  it('still accepts UTF-8 however it is declared: no charset, charset="UTF-8", utf8, a leading byte order mark', async () => {
    const variants: Array<[string, Buffer]> = [
      ['application/json', Buffer.from(JSON.stringify(signup({ name: 'Zoë 😀', email: 'u1@example.com' })))],
      ['application/json; charset="UTF-8"', Buffer.from(JSON.stringify(signup({ name: 'Zoë', email: 'u2@example.com' })))],
      ['Application/JSON;charset=utf8', Buffer.from(JSON.stringify(signup({ name: 'Zoë', email: 'u3@example.com' })))],
      ['application/json; charset=utf-8', Buffer.from(`\uFEFF${JSON.stringify(signup({ name: 'Zoë', email: 'u4@example.com' }))}`)],
    ];
    for (const [contentType, payload] of variants) {
      const res = await t.app.inject({ method: 'POST', url: N, headers: { 'content-type': contentType }, payload });
      expect(res.statusCode, contentType).toBe(201);
    }
    const names = t.db.raw.prepare("SELECT name FROM newsletter WHERE email_lower IN ('u1@example.com', 'u4@example.com') ORDER BY id").all();
    expect(names).toEqual([{ name: 'Zoë 😀' }, { name: 'Zoë' }]);
  });

  it('stores HTML- and SQL-looking text in free-text fields verbatim, as data', async () => {
    const name = "Robert'); DROP TABLE newsletter;-- <img src=x onerror=alert(1)>";
    expect((await postJson(t.app, N, signup({ name, email: 'bobby@example.com' }))).statusCode).toBe(201);
    const row = t.db.raw.prepare("SELECT name FROM newsletter WHERE email_lower = 'bobby@example.com'").get() as { name: string };
    expect(row.name).toBe(name);
  });
});
