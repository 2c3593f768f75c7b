/**
 * The HTTP contract between the site's forms and the ingest service: field names, limits,
 * normalisation, per-field issue codes and the error body.
 *
 * The service treats it as the authority; the browser islands import it for instant messages,
 * so it depends on nothing but `zod/mini` and two small data modules, and never on Node.
 * Every issue is reported as one of `ISSUE_CODES`, which the site translates as
 * `validation.<code>`.
 */
import * as z from 'zod/mini';
import { isCountryCode } from './countries.ts';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { LANGS } from './languages.ts';

export { ERROR_CODES };

// The languages a form can be submitted in: the site's languages (one list for both programs).
export { LANGS, type Lang } from './languages.ts';

/**
 * Maximum lengths in UTF-16 code units after normalisation (as HTML `maxlength` counts, so an emoji
 * outside the BMP counts 2), and the body size in bytes.
 */
export const LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  companyName: 200,
  message: 5000,
  captchaToken: 200,
  sourcePage: 200,
  honeypot: 1000,
  bodyBytes: 32 * 1024,
} as const;

/** The per-field issue codes; the site shows the translation `validation.<code>`. */
export const ISSUE_CODES = ['required', 'email', 'tooLong', 'consent', 'country', 'captcha', 'invalidChars', 'invisibleChars'] as const;

/** One of `ISSUE_CODES`. */
export type IssueCode = (typeof ISSUE_CODES)[number];

/** Field name → its first issue, e.g. `{ email: 'email', message: 'tooLong' }`. */
export type FieldIssues = Record<string, IssueCode>;

/** The body of every error answer: `{ error: { code: 'invalid', message: '…', fields: { email: 'email' } } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldIssues };
}

/** The body of a 201 answer. */
export interface SubmitOk {
  ok: true;
  /** `confirm_email`: nothing is active yet; a confirmation mail is on its way (double opt-in). */
  next?: 'confirm_email';
}

/** The hidden field real visitors leave empty; bots that fill it are answered 201 and ignored. */
export const HONEYPOT_FIELD = 'website';

// Control characters (C0, DEL, C1), line/paragraph separators, bidi overrides and lone surrogates
// (ill-formed UTF-16, which no UTF-8 store or mail can carry): none belongs in a form field, and
// CR/LF in a name or address is the classic mail header injection. With the `u` flag a surrogate
// range matches only unpaired halves; a well-formed pair is one code point outside it.
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;
// The message may contain line feeds and tabs (after CR LF is folded to LF), nothing else.
const MULTI_LINE_FORBIDDEN = /[\0-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;
// Format characters (zero-width space and joiners, soft hyphen, BOM, tag characters…) are invisible
// in a name and let two different strings look the same; the free-text message keeps them (emoji
// sequences need the zero-width joiner).
const INVISIBLE = /\p{Cf}/u;

const normaliseText = (value: string): string => value.trim().normalize('NFC');

// zod counts code points; the contract counts UTF-16 units, as the form's `maxlength` does.
const maxUnits = (max: number) => z.refine<string>((value) => value.length <= max, 'tooLong');
const singleLine = () => z.refine<string>((value) => !SINGLE_LINE_FORBIDDEN.test(value), 'invalidChars');
const visible = () => z.refine<string>((value) => !INVISIBLE.test(value), 'invisibleChars');

function requiredText(max: number) {
  return z.string('required').check(z.overwrite(normaliseText), z.minLength(1, 'required'), maxUnits(max), singleLine(), visible());
}

// Optional text: absent, null and blank all become null.
function optionalText(max: number) {
  const text = z.string('required').check(z.overwrite(normaliseText), maxUnits(max), singleLine(), visible());
  return z._default(
    z.nullable(z.pipe(text, z.transform((value: string) => (value === '' ? null : value)))),
    null,
  );
}

/** Trims, NFC-normalises and lower-cases the domain of an address: `' Ana@Example.COM '` → `'Ana@example.com'`. */
export function normaliseEmail(value: string): string {
  const text = normaliseText(value);
  const at = text.lastIndexOf('@');
  return at < 0 ? text : text.slice(0, at) + text.slice(at).toLowerCase();
}

/**
 * The email address pattern both the site and the service apply: zod's "practical" pattern
 * (`z.regexes.email`), copied because reaching it through `z.regexes` pulls every zod regex
 * into the browser bundle (2.7 KB gzip more). A test keeps the two identical.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

const email = z.string('required').check(
  z.overwrite(normaliseEmail),
  z.minLength(1, 'required'),
  maxUnits(LIMITS.email),
  singleLine(),
  visible(),
  z.regex(EMAIL_PATTERN, 'email'),
);

/** One email address as the forms accept it, normalised (`' Ana@Example.COM '` → `'Ana@example.com'`); the ops CLI's `--email` must pass it too. */
export const emailAddressSchema = email;

const lang = z.enum(LANGS, 'required');

const message = z.string('required').check(
  z.overwrite((value: string) => normaliseText(value.replace(/\r\n?/g, '\n'))),
  z.minLength(1, 'required'),
  maxUnits(LIMITS.message),
  z.refine((value: string) => !MULTI_LINE_FORBIDDEN.test(value), 'invalidChars'),
);

const country = z.string('required').check(
  z.overwrite((value: string) => value.trim().toLowerCase()),
  z.minLength(1, 'required'),
  z.refine(isCountryCode, 'country'),
);

// Only the service checks a captcha against the contract (the island compares the answer with the
// question's sum itself): marked pure, its `.check` calls leave the browser bundle with it.
const captcha = z.strictObject(
  {
    token: /* @__PURE__ */ z.string('captcha').check(z.minLength(1, 'captcha'), z.refine((value: string) => value.length <= LIMITS.captchaToken, 'captcha')),
    answer: /* @__PURE__ */ z.int('captcha').check(z.gte(0, 'captcha'), z.lte(18, 'captcha')),
  },
  'captcha',
);

/** Why a visitor writes, as the contact form's "reason" control offers it; absent means `general`. */
export const CONTACT_INTENTS = ['demo', 'sales', 'general'] as const;

/** One of `CONTACT_INTENTS`. */
export type ContactIntent = (typeof CONTACT_INTENTS)[number];

const intent = z.optional(z.enum(CONTACT_INTENTS, 'required'));

// A path of this site, as a link or `document.referrer` gives it: one leading slash (never two,
// which a browser reads as another host), no scheme, host, query, fragment or space.
const SITE_PATH = /^\/(?!\/)[\w\-.~%/]*$/;

/**
 * Tells whether `value` is a path of this site the contact form may report as where the visitor
 * came from: `isSitePath('/de/about')` → true, `isSitePath('https://x.example/')` → false.
 */
export function isSitePath(value: string): boolean {
  return value.length <= LIMITS.sourcePage && SITE_PATH.test(value);
}

// The page the visitor came from; absent or null when unknown.
const sourcePage = z.optional(z.nullable(z.string('invalidChars').check(z.refine(isSitePath, 'invalidChars'))));

const honeypot = z.optional(z.string('required').check(maxUnits(LIMITS.honeypot)));

/** The newsletter signup body: `{ name, email, privacyConsent: true, marketingConsent, lang, website? }`. */
export const newsletterSchema = z.strictObject({
  name: requiredText(LIMITS.name),
  email,
  privacyConsent: z.literal(true, 'consent'),
  marketingConsent: z.boolean('required'),
  lang,
  [HONEYPOT_FIELD]: honeypot,
});

/** A validated, normalised newsletter signup. */
export type NewsletterSignup = z.output<typeof newsletterSchema>;

/**
 * The contact form's fields without the captcha: what the form posts as plain HTML (JavaScript off;
 * its sender confirms by mail instead), and what the island checks before it checks the answer to
 * its question itself. `phone` and `companyName` may be absent, null or blank (all stored as null).
 * `intent` is why the visitor writes (absent: `general`); `sourcePage` the path of the site page
 * they came from (`/de/about`; absent or null when unknown).
 */
export const plainContactSchema = z.strictObject({
  intent,
  sourcePage,
  firstName: requiredText(LIMITS.name),
  lastName: requiredText(LIMITS.name),
  email,
  phone: optionalText(LIMITS.phone),
  companyName: optionalText(LIMITS.companyName),
  country,
  message,
  lang,
  [HONEYPOT_FIELD]: honeypot,
});

/**
 * The contact form body the island posts: the fields of `plainContactSchema` and the captcha's
 * token and answer. Built by extending the plain form's schema (not the plain one by omitting the
 * captcha), so the browser bundle, which needs only the fields, leaves the captcha's schema and
 * zod's number checks out.
 */
export const contactSchema = z.extend(plainContactSchema, { captcha });

/** A validated, normalised contact message. */
export type ContactSubmission = z.output<typeof contactSchema>;

/** The outcome of `validate`: the normalised data, or the per-field issues and the names of unexpected fields. */
export type Validation<T> =
  | { ok: true; data: T }
  | { ok: false; fields: FieldIssues; unexpected: string[]; notAnObject: boolean };

/** Tells whether a bot filled the hidden honeypot field: `honeypotFilled({ website: 'http://spam' })` → true. */
export function honeypotFilled(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>)[HONEYPOT_FIELD];
  return value !== undefined && value !== null && value !== '' && !(typeof value === 'string' && value.trim() === '');
}

const isIssueCode = (value: string): value is IssueCode => (ISSUE_CODES as readonly string[]).includes(value);

/** Validates and normalises a parsed JSON body against `newsletterSchema` or `contactSchema`. */
export function validate<S extends z.ZodMiniType>(schema: S, body: unknown): Validation<z.output<S>> {
  const result = z.safeParse(schema, body);
  if (result.success) return { ok: true, data: result.data };
  const fields: FieldIssues = {};
  const unexpected: string[] = [];
  let notAnObject = false;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === undefined) {
      if (issue.code === 'unrecognized_keys') unexpected.push(...issue.keys);
      else notAnObject = true;
      continue;
    }
    const name = String(field);
    // Keep the first issue per field: the checks are ordered from the most basic one.
    if (fields[name] === undefined) fields[name] = isIssueCode(issue.message) ? issue.message : 'required';
  }
  return { ok: false, fields, unexpected, notAnObject };
}

/**
 * Lists the issues of a form body by field, for inline messages.
 *
 * @example fieldIssues(newsletterSchema, { name: '', email: 'x', privacyConsent: false, marketingConsent: true, lang: 'en' })
 * // → { name: 'required', email: 'email', privacyConsent: 'consent' }
 */
export function fieldIssues(schema: z.ZodMiniType, body: unknown): FieldIssues {
  const result = validate(schema, body);
  return result.ok ? {} : result.fields;
}
