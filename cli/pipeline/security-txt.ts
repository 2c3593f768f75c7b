import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES } from '../site/languages.ts';
import type { SiteConfig } from '../site/site-config.ts';

/**
 * The day `/.well-known/security.txt` expires for a build at `now`: midnight UTC of the build's
 * day, a year later. Whole days, so that every build of one day writes the same bytes (the build
 * cache then writes nothing again), and never more than a year ahead, as RFC 9116 recommends.
 * From 29 February, 28 February of the next year.
 *
 * @example securityTxtExpiry(new Date('2026-11-28T09:50:00Z')) // 2027-11-28T00:00:00.000Z
 */
export function securityTxtExpiry(now: Date): Date {
  const year = now.getUTCFullYear() + 1;
  const month = now.getUTCMonth();
  const expiry = new Date(Date.UTC(year, month, now.getUTCDate()));
  // Date.UTC would roll 29 February of a year without one over to 1 March, a year and a day ahead.
  return expiry.getUTCMonth() === month ? expiry : new Date(Date.UTC(year, month + 1, 0));
}

/**
 * `/.well-known/security.txt` (RFC 9116) from `content/site.json`: a `Contact` line per security
 * contact, `Expires` a year after the build's day, `Preferred-Languages` the site's languages and
 * `Canonical` its own URL on the site; or the problem `security_contact_missing` when site.json
 * names no `mailto:` contact (`siteFile` is where the problem is reported).
 *
 * @example securityTxt(site, new Date('2026-11-28T09:50:00Z'))
 * // { ok: true, text: 'Contact: mailto:info@maskwise.io\nExpires: 2027-11-28T00:00:00Z\nPreferred-Languages: en, es, pt, fr, de, it, nl\nCanonical: https://www.maskwise.io/.well-known/security.txt\n' }
 */
export function securityTxt(site: Pick<SiteConfig, 'siteUrl' | 'securityContacts'>, now: Date, siteFile = 'site.json'): { ok: true; text: string } | { ok: false; problem: Problem } {
  const contacts = site.securityContacts ?? [];
  if (!contacts.some((contact) => contact.startsWith('mailto:'))) {
    return {
      ok: false,
      problem: { code: 'security_contact_missing', file: siteFile, message: `securityContacts: no "mailto:" contact for ${SECURITY_TXT_PATH} (RFC 9116 requires a Contact field)` },
    };
  }
  const expires = securityTxtExpiry(now).toISOString().replace('.000Z', 'Z');
  return {
    ok: true,
    text: [
      ...contacts.map((contact) => `Contact: ${contact}`),
      `Expires: ${expires}`,
      `Preferred-Languages: ${LANGUAGES.join(', ')}`,
      `Canonical: ${site.siteUrl}${SECURITY_TXT_PATH}`,
      '',
    ].join('\n'),
  };
}
