/**
 * The consent wording a signup agreed to, per language: the two checkbox labels exactly as the
 * form shows them and the privacy policy's version. Each subscription stores the wording's
 * sha256 (`newsletter.consent_hash`); the wording itself is stored once per hash
 * (`consent_texts`), so a receipt shows the exact words even after the texts change.
 */
import { createHash } from 'node:crypto';
import { LANGS, type Lang } from '../contract/schemas.ts';
import type { SiteContent } from '../site-content.ts';

/** One language's consent wording and its fingerprint. */
export interface ConsentWording {
  lang: Lang;
  privacyVersion: string;
  wording: string;
  /** sha256 of `wording`, hex. */
  hash: string;
}

/**
 * The wording of every language.
 *
 * @example consentWordings(content, '2026-11-23').de.wording
 * // 'privacy: Ich stimme … zu.\nmarketing: Ich möchte …\nprivacy policy version: 2026-11-23'
 */
export function consentWordings(content: SiteContent, privacyVersion: string): Readonly<Record<Lang, ConsentWording>> {
  return Object.fromEntries(
    LANGS.map((lang) => {
      const labels = content.texts[lang].consentLabels;
      const wording = [`privacy: ${labels.privacy}`, `marketing: ${labels.marketing}`, `privacy policy version: ${privacyVersion}`].join('\n');
      return [lang, { lang, privacyVersion, wording, hash: createHash('sha256').update(wording).digest('hex') }];
    }),
  ) as Record<Lang, ConsentWording>;
}
