import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headersForPath, parseHeadersFile } from '../../cli/host/static-host-files.ts';
import { builtDir, expect, test, watchConsole } from './support/fixtures.ts';

// A static host without rewrite rules answers every unknown URL with the nearest 404.html and
// the `_headers` headers. The 404 page's script then sends a wrong-case URL to its page.
for (const [typed, canonical, notFoundFile] of [
  ['/DE/Impressum', '/de/impressum', 'de/404.html'],
  ['/Privacy/', '/privacy', '404.html'],
] as const) {
  test(`on a host without rewrites, ${typed} reaches ${canonical} through the 404 page's script, under the CSP`, async ({ page, url }) => {
    const problems = watchConsole(page);
    const headers = headersForPath(parseHeadersFile(readFileSync(join(builtDir(), '_headers'), 'utf8')), typed);
    await page.route(url(typed), (route) =>
      route.fulfill({ status: 404, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body: readFileSync(join(builtDir(), notFoundFile)) }),
    );
    await page.goto(url(typed));
    await expect(page).toHaveURL(url(canonical));
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
  });
}

test('on a host without rewrites, an unknown URL stays on the 404 page of its language', async ({ page, url }) => {
  const problems = watchConsole(page);
  const typed = '/de/gibt-es-nicht';
  await page.route(url(typed), (route) =>
    route.fulfill({ status: 404, contentType: 'text/html; charset=utf-8', body: readFileSync(join(builtDir(), 'de/404.html')) }),
  );
  await page.goto(url(typed));
  await page.waitForLoadState('networkidle');
  await expect(page).toHaveURL(url(typed));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
});
