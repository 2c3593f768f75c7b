import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ContentError, type Problem } from './errors.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from './languages.ts';
import { jsonErrorLine } from './json-lines.ts';
import { DATA_FACT_NAMES, DATA_FACTS, type DataFact } from '../../ingest/contract/data-facts.ts';

const url = z.string().url();

/** A Contact of security.txt (RFC 9116): a `mailto:` address or an `https://` page. */
const securityContact = z.union([
  z.string().regex(/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be "mailto:" and an email address'),
  url.refine((u) => u.startsWith('https://'), 'must be an https:// URL or a mailto: address'),
]);

/** The schema of `content/site.json`: brand, company and contact details, external links. */
export const siteConfigSchema = z
  .object({
    brand: z.string().min(1),
    siteUrl: url.refine((u) => !u.endsWith('/'), 'must not end with a slash'),
    company: z
      .object({
        legalName: z.string().min(1),
        taxId: z.string().min(1),
        address: z.string().min(1),
        registry: z.string().min(1),
      })
      .strict(),
    email: z.string().email(),
    privacyEmail: z.string().email(),
    phone: z.string().min(1),
    /**
     * Where vulnerabilities are reported, as the `Contact` lines of /.well-known/security.txt, in
     * order of preference; the build fails without a `mailto:` one (`security_contact_missing`).
     */
    securityContacts: z.array(securityContact).optional(),
    /** The company's city as its own language writes it (the postal address's, the structured data's). */
    location: z.string().min(1),
    /** The city's name in the languages that write it otherwise (`{ "fr": "Barcelone" }`); the others write `location`. */
    locationNames: z.partialRecord(z.enum(LANGUAGES), z.string().min(1)).optional(),
    blogUrl: url,
    social: z.object({ telegram: url, linkedin: url }).strict(),
    ingestUrl: z.string().min(1),
    product: z
      .object({
        applicationCategory: z.string().min(1),
        operatingSystem: z.string().min(1),
      })
      .strict(),
    legal: z
      .object({
        lastUpdated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'),
        privacyVersion: z.string().min(1),
      })
      .strict(),
  })
  .strict();

export type SiteConfig = Readonly<z.infer<typeof siteConfigSchema>>;

/** Zod issues as problems naming the file and each bad field: `site.json: email: Invalid email address`. */
function describeIssues(file: string, error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({ code: 'content_invalid', file, message: `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}` }));
}

/** Reads a content JSON file and validates it with `schema`; throws a ContentError naming the file and fields. */
export function readContentJson<T>(file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
    raw = JSON.parse(text);
  } catch (error) {
    throw new ContentError([{ code: 'content_unreadable', file, line: jsonErrorLine(text, error), message: `cannot be read as JSON: ${(error as Error).message}` }]);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ContentError(describeIssues(file, parsed.error));
  return parsed.data;
}

/** Reads and validates `site.json` in `contentDir`; throws a ContentError naming the file and field. */
export function loadSiteConfig(contentDir: string): SiteConfig {
  return Object.freeze(readContentJson(join(contentDir, 'site.json'), siteConfigSchema));
}

/** The placeholders filled from `site.json`. */
const SITE_PLACEHOLDER_NAMES = ['brand', 'company', 'taxId', 'address', 'registry', 'email', 'privacyEmail', 'phone', 'location', 'siteUrl'] as const;

/** A name the `{{placeholder}}` syntax of strings and Markdown can use. */
type PlaceholderName = (typeof SITE_PLACEHOLDER_NAMES)[number] | DataFact;

/**
 * The names the `{{placeholder}}` syntax of strings and Markdown can use: the site.json values,
 * and the data facts the service applies (`{{linkDays}}`, `{{contactYears}}`, …).
 */
export const PLACEHOLDER_NAMES: readonly PlaceholderName[] = [...SITE_PLACEHOLDER_NAMES, ...DATA_FACT_NAMES];

/**
 * The company's city in `lang`: its name there when site.json gives one, else `location`.
 *
 * @example locationIn({ location: 'Barcelona', locationNames: { fr: 'Barcelone' } }, 'fr') // 'Barcelone'
 */
export function locationIn(site: Pick<SiteConfig, 'location' | 'locationNames'>, lang: Lang): string {
  return site.locationNames?.[lang] ?? site.location;
}

/** The values of the placeholders in `lang`, from `site.json` and the data facts' table (`{{location}}` is the city's name in `lang`). */
export function placeholderValues(site: SiteConfig, lang: Lang = DEFAULT_LANG): Record<PlaceholderName, string> {
  return {
    ...(Object.fromEntries(DATA_FACT_NAMES.map((name) => [name, String(DATA_FACTS[name])])) as Record<DataFact, string>),
    brand: site.brand,
    company: site.company.legalName,
    taxId: site.company.taxId,
    address: site.company.address,
    registry: site.company.registry,
    email: site.email,
    privacyEmail: site.privacyEmail,
    phone: site.phone,
    location: locationIn(site, lang),
    siteUrl: site.siteUrl,
  };
}
