import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../cli/paths.ts';
import { loadContentPages } from '../../cli/site/markdown/content-pages.ts';
import { siteRoutes } from '../../cli/site/routes.ts';
import { pageShots } from './page-shots.ts';

// `npm run screenshots`: which pages it photographs, then the script as a content maintainer runs
// it, a real process that builds the site, serves it and photographs it in Chromium. Without
// Debian's Chromium (or CHROMIUM_PATH), a developer's run leaves the photographs out after one line;
// CI fails.

const TSX = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const SCRIPT = join(PROJECT_ROOT, 'tests', 'screenshots', 'screenshots.ts');
const haveChromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || Boolean(process.env.CI);
if (!haveChromium) process.stderr.write('screenshots test: Chromium is not installed (Debian: apt-get install -y chromium); photographs left out.\n');

const work = mkdtempSync(join(tmpdir(), 'screenshots-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the script with `args` to its end: exit code and output. */
async function screenshots(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [SCRIPT, ...args], { cwd: PROJECT_ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A PNG's size in pixels, from its header (the IHDR chunk right after the 8-byte signature). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the pages photographed', () => {
  const shots = pageShots(siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages), ['de']);

  it('are every page type of the language, named by its English URL, with the 404 page', () => {
    const names = shots.map((shot) => shot.name);
    expect(names).toEqual(expect.arrayContaining([
      'home', 'about', 'solutions', 'contact', 'privacy', 'legal-notice', 'cookies', 'healthcare', '404',
      'newsletter-confirm', 'newsletter-confirmed', 'newsletter-unsubscribe', 'newsletter-unsubscribed', 'newsletter-link-invalid',
      'newsletter-check-inbox', 'form-not-accepted-email', 'form-too-many-attempts', 'form-not-stored',
      'contact-check-inbox', 'contact-confirm', 'contact-confirmed', 'contact-link-invalid',
    ]));
    expect(new Set(names).size).toBe(names.length);
    expect(shots.every((shot) => shot.lang === 'de' && (shot.url === '/de' || shot.url.startsWith('/de/')))).toBe(true);
  });

  it('open the token form pages with a token, so they show their button as the mails\' links do', () => {
    const urls = Object.fromEntries(shots.map((shot) => [shot.name, shot.url]));
    expect(urls).toMatchObject({
      'legal-notice': '/de/impressum',
      healthcare: '/de/gesundheitswesen',
      'newsletter-confirm': '/de/newsletter/confirm?token=screenshot',
      'newsletter-unsubscribe': '/de/newsletter/unsubscribe?token=screenshot',
      'contact-confirm': '/de/contact/confirm?token=screenshot',
      'newsletter-confirmed': '/de/newsletter/confirmed',
      '404': '/de/404',
    });
  });
});

describe('npm run screenshots', () => {
  // Given 60 s: it needs about 7 s of CPU, but on this 2-core machine shared with other builds and
  // browsers it took 20–26 s.
  it.runIf(haveChromium)('saves full-page PNGs of the chosen pages in German at 390 and 1280 px into --out and lists them', async () => {
    const out = join(work, 'shots');
    const run = await screenshots(['--lang', 'de', '--page', 'home,about,newsletter-confirm,404', '--out', out]);
    expect(run.code, run.stderr).toBe(0);

    const files = readdirSync(out).sort();
    expect(files).toEqual([
      'de-404-1280.png', 'de-404-390.png', 'de-about-1280.png', 'de-about-390.png',
      'de-home-1280.png', 'de-home-390.png', 'de-newsletter-confirm-1280.png', 'de-newsletter-confirm-390.png',
    ]);
    for (const file of files) {
      // A full-page shot is as wide as the window it was taken in, and as tall as the page.
      expect(pngSize(join(out, file)).width, file).toBe(Number(file.match(/-(\d+)\.png$/)![1]));
    }
    expect(pngSize(join(out, 'de-home-390.png')).height).toBeGreaterThan(2 * 800);

    expect(run.stdout).toContain(`8 screenshots in ${out}:\n${files.map((file) => `  ${file}`).join('\n')}`);
  }, 60_000);

  it('says what is wrong with --lang, --page or --dist, and photographs nothing', async () => {
    const out = join(work, 'none');
    const [lang, page, dist] = await Promise.all([
      screenshots(['--lang', 'xx', '--out', out]),
      screenshots(['--lang', 'de', '--page', 'home,pricing', '--out', out]),
      screenshots(['--lang', 'de', '--dist', join(work, 'no-build'), '--out', out]),
    ]);
    expect(lang.code).toBe(2);
    expect(lang.stderr).toContain('unknown language xx: use en, es, pt, fr, de, it, nl or all');
    expect(page.code).toBe(2);
    expect(page.stderr).toMatch(/no page named pricing: the pages are home, about, solutions, contact, /);
    expect(dist.code).toBe(2);
    expect(dist.stderr).toContain(`${join(work, 'no-build')} holds no de pages: run npm run build, or leave out --dist`);
    expect(existsSync(out)).toBe(false);
  });
});
