import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../../cli/pipeline/build-site.ts';
import { securityTxt, securityTxtExpiry } from '../../../cli/pipeline/security-txt.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { builtSite, readBuilt } from '../../helpers/built-site.ts';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const DAY_MS = 24 * 60 * 60 * 1000;

/** The fields RFC 9116 (section 2.5) defines; any other is an extension a reader ignores, none is written here. */
const RFC9116_FIELDS = ['acknowledgments', 'canonical', 'contact', 'encryption', 'expires', 'hiring', 'policy', 'preferred-languages'];

/**
 * Parses a security.txt as RFC 9116's ABNF has it (section 4): lines of `Field: value` or
 * `# comment`, blank lines allowed, LF or CRLF; field names case-insensitive. Throws on a line that
 * is neither, on a field RFC 9116 does not define, on no Contact, on Expires not exactly once or
 * not an RFC 3339 date-time in UTC, on a Contact or Canonical that is not a URI, and on a repeated
 * Preferred-Languages.
 */
function parseSecurityTxt(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z0-9-]+): (\S(?:.*\S)?)$/.exec(line);
    if (!match) throw new Error(`not a field line: ${JSON.stringify(line)}`);
    const name = match[1]!.toLowerCase();
    if (!RFC9116_FIELDS.includes(name)) throw new Error(`unknown field ${name}`);
    fields.set(name, [...(fields.get(name) ?? []), match[2]!]);
  }
  if (!text.endsWith('\n')) throw new Error('the last line has no line break');
  if (!fields.get('contact')?.length) throw new Error('no Contact');
  if (fields.get('expires')?.length !== 1) throw new Error('Expires must appear exactly once');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/.test(fields.get('expires')![0]!)) throw new Error('Expires is not an RFC 3339 date-time');
  if ((fields.get('preferred-languages')?.length ?? 0) > 1) throw new Error('Preferred-Languages must appear at most once');
  for (const uri of [...fields.get('contact')!, ...(fields.get('canonical') ?? [])]) new URL(uri);
  return fields;
}

describe('/.well-known/security.txt', () => {
  it('parses per RFC 9116: the contacts of site.json, one Expires a year after the build\'s day, the seven languages, Canonical its own URL', async () => {
    const { outDir } = await builtSite();
    const text = readBuilt(outDir, '.well-known/security.txt');
    const fields = parseSecurityTxt(text);
    expect(fields.get('contact')).toEqual(site.securityContacts);
    expect(fields.get('contact')!.some((c) => c.startsWith('mailto:'))).toBe(true);
    // The shared build's clock is 2026-03-01T00:00:00Z.
    expect(fields.get('expires')).toEqual(['2027-03-01T00:00:00Z']);
    expect(fields.get('preferred-languages')![0]!.split(/,\s*/)).toEqual([...LANGUAGES]);
    expect(fields.get('canonical')).toEqual([`${site.siteUrl}/.well-known/security.txt`]);
  });

  it('expires in the future, at most a year ahead, for a build today', () => {
    const now = new Date();
    const built = securityTxt(site, now);
    if (!built.ok) throw new Error(built.problem.message);
    const expires = Date.parse(parseSecurityTxt(built.text).get('expires')![0]!);
    expect(expires).toBeGreaterThan(now.getTime());
    expect(expires).toBeLessThanOrEqual(now.getTime() + 365 * DAY_MS);
    expect(expires - now.getTime()).toBeGreaterThan(363 * DAY_MS);
  });

  it('expires on a whole day: every build of one day writes the same text; from 29 February, on 28 February', () => {
    const morning = securityTxt(site, new Date('2026-11-28T00:00:01Z'));
    const night = securityTxt(site, new Date('2026-11-28T23:59:59Z'));
    expect(morning).toEqual(night);
    expect(securityTxt(site, new Date('2026-11-29T00:00:00Z'))).not.toEqual(night);
    expect(securityTxtExpiry(new Date('2028-02-29T12:00:00Z')).toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });

  it.each([
    ['without securityContacts', (s: Record<string, unknown>) => delete s.securityContacts],
    ['with an empty list', (s: Record<string, unknown>) => (s.securityContacts = [])],
    ['with only a web page', (s: Record<string, unknown>) => (s.securityContacts = ['https://www.maskwise.io/contact'])],
  ])('fails a build %s, naming site.json, and publishes nothing', async (_case, change) => {
    const contentDir = mkdtempSync(join(tmpdir(), 'security-txt-content-'));
    cpSync(DEFAULT_PATHS.contentDir, contentDir, { recursive: true });
    const config = JSON.parse(readFileSync(join(contentDir, 'site.json'), 'utf8')) as Record<string, unknown>;
    change(config);
    writeFileSync(join(contentDir, 'site.json'), JSON.stringify(config, null, 2));
    const outDir = join(mkdtempSync(join(tmpdir(), 'security-txt-out-')), 'dist');
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir, langs: ['en'] });
    expect(result.errors.map((e) => e.code)).toEqual(['security_contact_missing']);
    expect(formatProblem(result.errors[0]!)).toContain(`${join(contentDir, 'site.json')}: securityContacts:`);
    expect(existsSync(outDir)).toBe(false);
  });

  it('refuses a contact that is neither a mailto: address nor an https:// page (content_invalid)', async () => {
    const contentDir = mkdtempSync(join(tmpdir(), 'security-txt-content-'));
    cpSync(DEFAULT_PATHS.contentDir, contentDir, { recursive: true });
    const config = JSON.parse(readFileSync(join(contentDir, 'site.json'), 'utf8')) as Record<string, unknown>;
    config.securityContacts = ['security@maskwise.io'];
    writeFileSync(join(contentDir, 'site.json'), JSON.stringify(config, null, 2));
    const result = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir: join(mkdtempSync(join(tmpdir(), 'security-txt-out-')), 'dist'), langs: ['en'] });
    expect(result.errors.map((e) => e.code)).toEqual(['content_invalid']);
    expect(result.errors[0]!.message).toMatch(/^securityContacts\.0: /);
  });
});
