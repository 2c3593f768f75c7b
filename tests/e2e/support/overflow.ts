/**
 * The overflow check of the per-page browser checks (`tests/e2e/page-checks.spec.ts`): the pages the
 * build wrote, the widths a page must fit, and what sticks out at one width.
 */
import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { builtDir } from './fixtures.ts';

/** The widths every page must fit without horizontal scrolling: small phones, a common phone, a tablet. */
export const OVERFLOW_WIDTHS = [320, 360, 390, 768];

/**
 * Every page the build wrote, as the URL a visitor opens: `de/about.html` → `/de/about`,
 * `index.html` → `/`, and each 404 page through an unknown URL of its language.
 */
export function builtPages(): string[] {
  const files = readdirSync(builtDir(), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.html') && !file.startsWith('_'));
  return files.sort().map((file) => {
    const path = file.slice(0, -'.html'.length);
    if (path === 'index') return '/';
    if (path === '404') return '/no-such-page';
    if (path.endsWith('/404')) return `/${path.slice(0, -'404'.length)}no-such-page`;
    return `/${path}`;
  });
}

/** What sticks out at `width`: the page's own overflow and any heading wider than its box. */
export async function overflowAt(page: Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 800 });
  return page.evaluate((w) => {
    const problems: string[] = [];
    const describe = (el: Element) => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > innerWidth) {
      // Name the innermost elements that reach past the right edge, so a failure says what to fix.
      const wide = [...document.body.querySelectorAll('*')].filter(
        (el) => !el.closest('svg, [data-island-props]') && el.getBoundingClientRect().right > innerWidth + 0.5,
      );
      const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
      problems.push(`${w}px: page is ${scrollWidth}px wide (${innermost.slice(0, 3).map(describe).join(', ')})`);
    }
    // A heading clipped by an ancestor's overflow: hidden does not widen the page, but is cut off all the same.
    for (const heading of document.querySelectorAll('h1, h2, h3')) {
      if (heading.scrollWidth > heading.clientWidth + 1 && heading.getClientRects().length > 0) {
        problems.push(`${w}px: ${describe(heading)} is ${heading.scrollWidth}px wide in a ${heading.clientWidth}px box`);
      }
    }
    return problems;
  }, width);
}
