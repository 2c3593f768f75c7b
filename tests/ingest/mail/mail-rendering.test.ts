/**
 * Every mail's HTML part as the W3C checker and a browser see it: every kind of mail the service
 * sends, in every language, written by `writeMailPreviews` (what `ingest preview-mail` writes),
 * checked by the Nu HTML checker (0 errors), then opened in Chromium at a phone's width (375 px)
 * and a desktop mail pane's (800 px) with images blocked, as many mail programs start: nothing
 * sticks out sideways, the brand's wordmark shows, and a screenshot of each is taken.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMailPreviews } from '../../../ingest/mail/messages/preview-mail.ts';
import { runVnu } from '../../bench/vnu.ts';
import { SITE_CONTENT, tempDir } from '../fixtures.ts';

const temp = tempDir();
const dir = join(temp.dir, 'mails');
const shots = join(temp.dir, 'shots');
const WIDTHS = [375, 800];
let browser: Browser | undefined;

beforeAll(async () => {
  await writeMailPreviews(dir, { from: 'forms@example.com', to: 'sales@example.com', timeZone: 'Europe/Madrid', content: SITE_CONTENT, siteUrl: 'https://www.example.com', apiUrl: null, linkDays: 7 });
});
afterAll(async () => {
  await browser?.close();
  temp.remove();
});

const pages = () => readdirSync(dir).filter((file) => file.endsWith('.html')).sort();

describe('the HTML part of every mail', () => {
  // One run of the checker over all 42 (Java starts once: about 3 s here).
  it('passes the W3C Nu HTML checker with no error and no warning', () => {
    const result = runVnu(dir);
    expect(result.files).toBe(42);
    expect(result.errors.map((m) => `${m.url.split('/').pop()}:${m.lastLine} ${m.message}`)).toEqual([]);
    expect(result.warnings.map((m) => `${m.url.split('/').pop()}:${m.lastLine} ${m.message}`)).toEqual([]);
  }, 60_000);

  it('fits 375 and 800 px wide with nothing overflowing sideways, and shows the brand with images blocked', async () => {
    const { chromium } = await import('@playwright/test');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    // The logo lives on the public site; blocked here, as a mail program blocks remote images by default.
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const problems: string[] = [];
    let taken = 0;
    for (const file of pages()) {
      await page.goto(pathToFileURL(join(dir, file)).href);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const found = await page.evaluate(() => {
          const wide: string[] = [];
          const { scrollWidth } = document.documentElement;
          if (scrollWidth > innerWidth) wide.push(`the page is ${scrollWidth}px wide`);
          // Inside the card too: a long URL or address must wrap within it, not run past its edge.
          const card = document.querySelector('h1')!.parentElement!.getBoundingClientRect();
          for (const el of document.body.querySelectorAll('*')) {
            const box = el.getBoundingClientRect();
            if (box.width > 0 && box.right > Math.min(innerWidth, el.closest('h1, table, p, blockquote') ? card.right : innerWidth) + 0.5) {
              wide.push(`<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}" ends at ${Math.round(box.right)}px`);
            }
          }
          const wordmark = document.querySelector('a > img + span');
          const box = wordmark?.getBoundingClientRect();
          if (!box || box.width < 40 || wordmark?.textContent !== 'MaskWise') wide.push('the wordmark is not shown');
          return wide;
        });
        problems.push(...found.map((problem) => `${file} at ${width}px: ${problem}`));
        const png = await page.screenshot({ path: join(shots, `${file.replace(/\.html$/, '')}-${width}.png`), fullPage: true });
        expect(png.readUInt32BE(16)).toBe(width);
        taken++;
      }
    }
    expect(problems).toEqual([]);
    expect(taken).toBe(42 * WIDTHS.length);
  }, 120_000);
});
