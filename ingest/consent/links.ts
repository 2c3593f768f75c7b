/**
 * The signed links of the consent lifecycle: a confirmation link (expires) and an unsubscribe
 * link (never expires) for one subscription, and the confirmation link (expires) of a contact
 * message sent without JavaScript.
 *
 * A token is `<purpose>.<lang>.<id>.<expires>.<signature>`: `c` (confirm), `u` (unsubscribe) or
 * `k` (contact), the row's language and id (no leading zeros: one token per row), the expiry in
 * seconds since the epoch (0: none), and an HMAC-SHA256 over those and the row's address and
 * time (`LinkedSubscription`), with a key derived from the service secret. It carries no address,
 * so a link in a forwarded mail shows nothing about the person; it only works for the row it was
 * made for (a row deleted and its id reused by someone else fails the check); nobody without the
 * key can make one. Parsing alone changes nothing and reads no database: the language it carries
 * picks the page a visitor is sent to.
 *
 * An unsubscribe token ends with a second, shorter tag over its purpose, language and id alone
 * (`u.de.42.0.<signature>.<tag>`), checkable without the row: once the subscription is gone (a
 * second click, an erasure) a genuine link still answers "unsubscribed", while a forged one
 * answers "invalid" whether or not its id exists, so the answer says nothing about other rows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LANGS, type Lang } from '../contract/schemas.ts';
import { type ServicePage, servicePagePath } from '../contract/service-pages.ts';

/** What a link does: confirm a subscription, unsubscribe, or confirm a contact message's sender. */
export type LinkPurpose = 'confirm' | 'unsubscribe' | 'contact';

/**
 * The fields of a row a link is bound to. `created_at` is the time of what the link acts on: a
 * contact's or subscription's creation, or for a newsletter confirmation link the time of the
 * signup request it confirms (`requestBinding`).
 */
export interface LinkedSubscription {
  id: number;
  email_lower: string;
  created_at: string;
  lang: string;
}

/**
 * What a newsletter confirmation link is bound to: the subscription and the request's time
 * (`consent_at`), so each request a pending signup received has its own link.
 */
export function requestBinding(request: { id: number; email_lower: string; consent_at: string; lang: string }): LinkedSubscription {
  return { id: request.id, email_lower: request.email_lower, created_at: request.consent_at, lang: request.lang };
}

/** A token's readable fields, before its signature is checked against the row. */
export interface ParsedToken {
  purpose: LinkPurpose;
  lang: Lang;
  id: number;
  /** ms since the epoch, or null for a link that never expires. */
  expiresAt: number | null;
  token: string;
  /** The row-bound signature. */
  signature: string;
  /** Unsubscribe tokens: the tag over purpose, language and id alone (null in tokens made before it existed). */
  tag: string | null;
}

/** Whether a token is good for a row at a time. */
export type TokenCheck = 'valid' | 'forged' | 'expired';

const PURPOSE_CODES: Record<LinkPurpose, string> = { confirm: 'c', unsubscribe: 'u', contact: 'k' };
const TOKEN = /^([cuk])\.([a-z]{2})\.([1-9]\d{0,14})\.(0|[1-9]\d{0,11})\.([\w-]{43})(?:\.([\w-]{22}))?$/;

const equal = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Creates and checks links with a key derived from `secret` (the service secret). */
export function consentLinks(secret: string) {
  const key = createHmac('sha256', secret).update('consent-links/v1').digest();
  const signature = (purpose: LinkPurpose, lang: string, id: number, expires: number, row: LinkedSubscription) =>
    createHmac('sha256', key).update(`${PURPOSE_CODES[purpose]}|${lang}|${id}|${expires}|${row.email_lower}|${row.created_at}`).digest('base64url');
  // 128 bits over what the token names, without the row: enough to tell a genuine token from a forged one.
  const tagOf = (purpose: LinkPurpose, lang: string, id: number) =>
    createHmac('sha256', key).update(`tag|${PURPOSE_CODES[purpose]}|${lang}|${id}`).digest('base64url').slice(0, 22);

  return {
    /** A token for `row`; `expiresAt` in ms, or null for none. */
    sign(purpose: LinkPurpose, row: LinkedSubscription, expiresAt: number | null): string {
      const lang = (LANGS as readonly string[]).includes(row.lang) ? row.lang : 'en';
      const expires = expiresAt === null ? 0 : Math.ceil(expiresAt / 1000);
      const token = `${PURPOSE_CODES[purpose]}.${lang}.${row.id}.${expires}.${signature(purpose, lang, row.id, expires, row)}`;
      return purpose === 'unsubscribe' ? `${token}.${tagOf(purpose, lang, row.id)}` : token;
    },
    /** Reads a token's fields without trusting them (null when it is not a token of `purpose`). */
    parse(token: unknown, purpose: LinkPurpose): ParsedToken | null {
      if (typeof token !== 'string') return null;
      const match = TOKEN.exec(token);
      if (match === null || match[1] !== PURPOSE_CODES[purpose] || !(LANGS as readonly string[]).includes(match[2]!)) return null;
      if (match[6] !== undefined && purpose !== 'unsubscribe') return null;
      const expires = Number(match[4]);
      return {
        purpose,
        lang: match[2] as Lang,
        id: Number(match[3]),
        expiresAt: expires === 0 ? null : expires * 1000,
        token,
        signature: match[5]!,
        tag: match[6] ?? null,
      };
    },
    /** Checks a parsed token against the row it names: forged (wrong row, key or fields) or expired at `now`. */
    check(parsed: ParsedToken, row: LinkedSubscription, now: number): TokenCheck {
      const expires = parsed.expiresAt === null ? 0 : parsed.expiresAt / 1000;
      if (row.id !== parsed.id || !equal(parsed.signature, signature(parsed.purpose, parsed.lang, parsed.id, expires, row))) return 'forged';
      if (parsed.tag !== null && !equal(parsed.tag, tagOf(parsed.purpose, parsed.lang, parsed.id))) return 'forged';
      return parsed.expiresAt !== null && parsed.expiresAt <= now ? 'expired' : 'valid';
    },
    /** True when an unsubscribe token was made with this key for the id it names, whether or not that row still exists. */
    isGenuine(parsed: ParsedToken): boolean {
      return parsed.tag !== null && equal(parsed.tag, tagOf(parsed.purpose, parsed.lang, parsed.id));
    },
  };
}

/** The links a service makes. */
export type ConsentLinks = ReturnType<typeof consentLinks>;

/** Where the public reaches the site and the service: `{ siteUrl: 'https://www.example.com', apiUrl: 'https://www.example.com/api' }`. */
export interface PublicUrls {
  siteUrl: string;
  apiUrl: string;
}

/** The absolute address of a service page, with a token when given: `pageUrl(urls, 'newsletterConfirm', 'de', 'c.de…')`. */
export function pageUrl(urls: PublicUrls, page: ServicePage, lang: Lang, token?: string): string {
  return `${urls.siteUrl}${servicePagePath(page, lang)}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
}

/** The RFC 8058 one-click unsubscribe address for `List-Unsubscribe`. */
export function oneClickUrl(urls: PublicUrls, token: string): string {
  return `${urls.apiUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}
