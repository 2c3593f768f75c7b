/**
 * `ingest preview-mail --out DIR`: sample emails as files a person can open, rendered by the real
 * sales email code with the operator's settings.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMailPreviews } from '../../../ingest/mail/messages/preview-mail.ts';
import { tempDir } from '../fixtures.ts';

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

describe('preview-mail', () => {
  it('writes each sample sales email as a complete .eml message and its HTML part as a page', async () => {
    const dir = join(folder(), 'previews');
    const written = await writeMailPreviews(dir, { from: 'forms@example.com', to: 'sales@example.com', timeZone: 'Asia/Tokyo' });
    expect(readdirSync(dir).sort()).toEqual([
      'sales-demo-request.eml', 'sales-demo-request.html',
      'sales-general-question.eml', 'sales-general-question.html',
      'sales-question.eml', 'sales-question.html',
    ]);
    expect(written).toHaveLength(6);
    const eml = readFileSync(join(dir, 'sales-demo-request.eml'), 'utf8');
    expect(eml).toMatch(/^From: forms@example\.com$/m);
    expect(eml).toMatch(/^To: sales@example\.com$/m);
    expect(eml).toMatch(/^Subject: =\?UTF-8\?Q\?Demo_request_from_/m);
    expect(eml).toContain('Content-Type: text/plain; charset=utf-8');
    expect(eml).toContain('Content-Type: text/html; charset=utf-8');
    const html = readFileSync(join(dir, 'sales-demo-request.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html><html><head><meta charset="utf-8">/);
    expect(html).toContain('href="tel:+34600123456"');
    expect(html).toContain('href="mailto:lucia.fernandez@example.com"');
    expect(html).toContain('(Asia/Tokyo)');
    expect(readFileSync(join(dir, 'sales-question.html'), 'utf8')).toContain('Sales question');
    expect(readFileSync(join(dir, 'sales-general-question.html'), 'utf8')).toContain('General question');
  });

  it('runs from the command line with the configured time zone, and refuses a bad one before writing anything', async () => {
    const dir = folder();
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: join(dir, 'data') };
    const ok = await run(process.execPath, [BIN, 'preview-mail', '--out', join(dir, 'out')], { env: { ...env, SALES_TIMEZONE: 'America/New_York' } });
    expect(ok.stdout.trim().split('\n')).toHaveLength(6);
    expect(ok.stderr).toContain('wrote 3 sample email(s), times in America/New_York');
    expect(readFileSync(join(dir, 'out', 'sales-question.html'), 'utf8')).toContain('(America/New_York)');
    const bad = await run(process.execPath, [BIN, 'preview-mail', '--out', join(dir, 'bad')], { env: { ...env, SALES_TIMEZONE: 'Mars/Olympus' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain('SALES_TIMEZONE must be an IANA time zone name');
    expect(readdirSync(dir)).not.toContain('bad');
  });
});
