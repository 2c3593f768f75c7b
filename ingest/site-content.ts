/**
 * What the service reads from the site's content folder (`CONTENT_DIR`, by default `content/`)
 * at start-up, validated with zod: the brand and company for mail footers, the site's URL and the
 * privacy policy's version it publishes, and per language the mail texts and the newsletter's
 * consent checkbox labels (the wording a consent receipt proves). The site and the service are
 * built from the same folder, so a mail says what the pages say.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type MailTexts, mailTextsSchema } from './contract/mail-texts.ts';
import { LANGS, type Lang } from './contract/schemas.ts';
import { OperatorError } from './operator-errors.ts';

const siteSchema = z.object({
  brand: z.string().min(1),
  siteUrl: z.string().url(),
  company: z.object({ legalName: z.string().min(1), address: z.string().min(1) }),
  legal: z.object({ privacyVersion: z.string().regex(/^[\w.-]{1,40}$/) }),
});

const localeSchema = z.object({
  newsletter: z.object({ privacyConsent: z.string().min(1), marketingConsent: z.string().min(1) }),
  mail: mailTextsSchema,
  servicePages: z.object({ formRefused: z.object({ title: z.string().min(1), text: z.string().min(1), back: z.string().min(1) }) }),
});

/** One language's texts the service uses. */
interface LanguageTexts {
  mail: MailTexts;
  /** The consent checkbox labels as the form shows them (placeholders filled, markup removed). */
  consentLabels: { privacy: string; marketing: string };
  /** The 403 page for a form posted from another website. */
  formRefused: { title: string; text: string; back: string };
}

/** The site content the service uses. */
export interface SiteContent {
  brand: string;
  company: { legalName: string; address: string };
  siteUrl: string;
  privacyVersion: string;
  texts: Readonly<Record<Lang, LanguageTexts>>;
}

function readJson<T>(file: string, schema: z.ZodType<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new OperatorError('content_invalid', `${file}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new OperatorError('content_invalid', `${file}: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Fills `{{name}}` placeholders from `values` and drops the markup of a label (`<privacy>…</privacy>`
 * becomes its text), giving the text a visitor reads.
 *
 * @example displayedText('I accept the <privacy>policy</privacy> of {{brand}}.', { brand: 'MaskWise' }) // 'I accept the policy of MaskWise.'
 */
function displayedText(template: string, values: Readonly<Record<string, string>>): string {
  return template
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole)
    .replace(/<\/?[a-zA-Z][\w-]*>/g, '');
}

/** Reads and checks the content the service needs from `contentDir`; throws `OperatorError('content_invalid')`. */
export function loadSiteContent(contentDir: string): SiteContent {
  const site = readJson(join(contentDir, 'site.json'), siteSchema);
  const values = { brand: site.brand, company: site.company.legalName };
  const texts = Object.fromEntries(
    LANGS.map((lang) => {
      const locale = readJson(join(contentDir, 'locales', `${lang}.json`), localeSchema);
      const consentLabels = {
        privacy: displayedText(locale.newsletter.privacyConsent, values),
        marketing: displayedText(locale.newsletter.marketingConsent, values),
      };
      return [lang, { mail: locale.mail, consentLabels, formRefused: locale.servicePages.formRefused }];
    }),
  ) as Record<Lang, LanguageTexts>;
  return {
    brand: site.brand,
    company: site.company,
    siteUrl: new URL(site.siteUrl).origin,
    privacyVersion: site.legal.privacyVersion,
    texts,
  };
}
