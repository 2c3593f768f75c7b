import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const url = z.string().url();

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
    location: z.string().min(1),
    blogUrl: url,
    social: z.object({ telegram: url, linkedin: url }).strict(),
    ingestUrl: z.string().min(1),
    legal: z
      .object({
        lastUpdated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'),
        privacyVersion: z.string().min(1),
      })
      .strict(),
  })
  .strict();

export type SiteConfig = Readonly<z.infer<typeof siteConfigSchema>>;

/** A content file that failed its schema; the message names the file and every bad field. */
export class ContentError extends Error {
  override name = 'ContentError';
}

/** Formats zod issues as `file: field.path: message` lines. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => `${file}: ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('\n');
}

/** Reads and validates `site.json` in `contentDir`; throws a ContentError naming the file and field. */
export function loadSiteConfig(contentDir: string): SiteConfig {
  const file = join(contentDir, 'site.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContentError(`${file}: cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = siteConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ContentError(describeIssues(file, parsed.error));
  return Object.freeze(parsed.data);
}

/** The values the `{{placeholder}}` syntax of strings and Markdown can use. */
export function placeholderValues(site: SiteConfig): Record<string, string> {
  return {
    brand: site.brand,
    company: site.company.legalName,
    taxId: site.company.taxId,
    address: site.company.address,
    registry: site.company.registry,
    email: site.email,
    privacyEmail: site.privacyEmail,
    phone: site.phone,
    location: site.location,
    siteUrl: site.siteUrl,
  };
}
