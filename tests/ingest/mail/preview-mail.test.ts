/**
 * `ingest preview-mail --out DIR`: every kind of mail the service sends, in every language, as
 * files a person can open, rendered by the real composers with the operator's settings.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGS } from '../../../ingest/contract/languages.ts';
import { writeMailPreviews } from '../../../ingest/mail/messages/preview-mail.ts';
import { SITE_CONTENT, tempDir } from '../fixtures.ts';
import { headerOf } from './mail-parts.ts';

const BIN = new URL('../../../ingest/bin.js', import.meta.url).pathname;
const run = promisify(execFile);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function folder(): string {
  const temp = tempDir();
  cleanups.push(temp.remove);
  return temp.dir;
}

/** Every kind of mail the service sends: the sales mail for each reason, and the three mails to a visitor. */
const KINDS = ['sales-demo', 'sales-sales', 'sales-question', 'newsletter-confirm', 'contact-confirm', 'already-subscribed'];

describe('preview-mail', () => {
  it('writes every kind of mail in every language as a complete .eml message and its HTML part as a page', async () => {
    const dir = join(folder(), 'previews');
    const settings = { from: 'forms@example.com', to: 'sales@example.com', timeZone: 'Asia/Tokyo', content: SITE_CONTENT, siteUrl: 'https://www.example.com', apiUrl: null, linkDays: 7 };
    const written = await writeMailPreviews(dir, settings);
    const expected = KINDS.flatMap((kind) => LANGS.flatMap((lang) => [`${kind}.${lang}.eml`, `${kind}.${lang}.html`]));
    expect(readdirSync(dir).sort()).toEqual(expected.sort());
    expect(written).toHaveLength(KINDS.length * LANGS.length * 2);
    for (const lang of LANGS) {
      const t = SITE_CONTENT.texts[lang].mail;
      const eml = (kind: string) => readFileSync(join(dir, `${kind}.${lang}.eml`), 'utf8');
      const html = (kind: string) => readFileSync(join(dir, `${kind}.${lang}.html`), 'utf8');
      expect(headerOf(eml('sales-demo'), 'To')).toBe('sales@example.com');
      expect(headerOf(eml('sales-demo'), 'Subject')).toContain(t.sales.reasonDemo);
      expect(headerOf(eml('sales-sales'), 'Subject')).toContain(t.sales.reasonSales);
      expect(headerOf(eml('sales-question'), 'Subject')).toContain(t.sales.reasonQuestion);
      expect(headerOf(eml('newsletter-confirm'), 'To')).toBe('lena@example.com');
      expect(headerOf(eml('newsletter-confirm'), 'List-Unsubscribe')).toMatch(/^<https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?token=/);
      for (const kind of KINDS) {
        expect(eml(kind)).toMatch(/^From: forms@example\.com$/m);
        expect(eml(kind)).toContain('Content-Type: text/plain; charset=utf-8');
        expect(html(kind)).toMatch(new RegExp(`^<!doctype html><html lang="${lang}"`));
      }
      expect(html('sales-demo')).toContain('href="tel:+34600123456"');
      expect(html('sales-demo')).toContain('href="mailto:lucia.fernandez@example.com"');
      expect(html('sales-demo')).toContain('(Asia/Tokyo)');
      expect(html('sales-demo')).toContain('href="https://www.example.com/es"');
      expect(html('newsletter-confirm')).toContain(`href="https://www.example.com/${lang === 'en' ? '' : `${lang}/`}newsletter/confirm?token=`);
    }
  });

  it('runs from the command line with the configured settings, and refuses a bad one before writing anything', async () => {
    const dir = folder();
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: join(dir, 'data') };
    const ok = await run(process.execPath, [BIN, 'preview-mail', '--out', join(dir, 'out')], { env: { ...env, SALES_TIMEZONE: 'America/New_York' } });
    expect(ok.stdout.trim().split('\n')).toHaveLength(KINDS.length * LANGS.length * 2);
    expect(ok.stderr).toContain(`wrote ${KINDS.length * LANGS.length} sample email(s), times in America/New_York`);
    expect(readFileSync(join(dir, 'out', 'sales-sales.nl.html'), 'utf8')).toContain('(America/New_York)');
    const bad = await run(process.execPath, [BIN, 'preview-mail', '--out', join(dir, 'bad')], { env: { ...env, SALES_TIMEZONE: 'Mars/Olympus' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain('SALES_TIMEZONE must be an IANA time zone name');
    expect(readdirSync(dir)).not.toContain('bad');
  });
});
