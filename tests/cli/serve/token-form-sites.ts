import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { servicePagePath, TOKEN_FORM_PAGES } from '../../../ingest/contract/service-pages.ts';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { fileForPath, notFoundPath } from '../../../cli/site/routes.ts';

/** Every token form page in every language, with the endpoint its POST must reach. */
export const TOKEN_FORM_CASES: readonly { lang: Lang; path: string; endpoint: string }[] = LANGUAGES.flatMap((lang) =>
  (Object.keys(TOKEN_FORM_PAGES) as (keyof typeof TOKEN_FORM_PAGES)[]).map((page) => ({
    lang,
    path: servicePagePath(page, lang),
    endpoint: `/api${TOKEN_FORM_PAGES[page]}`,
  })),
);

/** POSTs that look like a token form page's but are not one exactly: none may reach the service. */
export const NOT_TOKEN_FORM_POSTS: readonly string[] = [
  '/de/newsletter/confirmed?token=abc',
  '/de/newsletter/link-invalid',
  '/DE/newsletter/confirm?token=abc',
  '/de/Newsletter/Confirm',
  '/de/newsletter/confirm/?token=abc',
  '/de/newsletter/confirm.html?token=abc',
  '/de/newsletter/confirm/x',
  '/en/newsletter/confirm?token=abc',
  '/xx/newsletter/confirm',
  '/de/de/newsletter/confirm',
  '/api-newsletter/confirm',
  '/newsletter',
  '/de/about',
  '/de/contact/confirmed?token=abc',
  '/contact/link-invalid',
  '/de/contact',
  '/contact',
];

/** The HTML a fixture page holds: its language and path, so a test can tell which one it got. */
export const fixturePage = (lang: Lang, path: string) => `<!DOCTYPE html><html lang="${lang}"><body>page ${path}</body></html>`;

/**
 * A tiny built site in a temporary folder: the token form pages in every language and each
 * language's 404 page, as `sitegen build` writes them (`newsletter/confirm.html`).
 */
export function tokenFormSite(): string {
  const root = mkdtempSync(join(tmpdir(), 'sitegen-token-forms-'));
  const write = (file: string, html: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), html);
  };
  for (const { lang, path } of TOKEN_FORM_CASES) write(fileForPath(path), fixturePage(lang, path));
  for (const lang of LANGUAGES) write(fileForPath(notFoundPath(lang)), fixturePage(lang, notFoundPath(lang)));
  return root;
}

/** Spellings of the service's metrics path that no host forwards. */
export const METRICS_PATHS: readonly string[] = [
  '/api/metrics',
  '/api/metrics/',
  '/api/metrics?format=prometheus',
  '/api/Metrics',
  '/api/METRICS/x',
  '/api/metrics.json',
  '/api/metricsz',
  '/api/%6Detrics',
  '/api/x/../metrics',
  '/api/x/..%2Fmetrics',
  '/api/./metrics',
];
