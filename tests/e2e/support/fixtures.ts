import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import axe from 'axe-core';
import Database from 'better-sqlite3';
import type { E2EState } from './global-setup.ts';

/** What global setup started: the servers' origins, the ingest service's data and mail folders. */
export function state(): E2EState {
  return JSON.parse(readFileSync(process.env.E2E_STATE ?? '', 'utf8')) as E2EState;
}

/** Reads rows from the ingest service's real SQLite file (read-only). */
export function rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(state().databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The raw emails the SMTP peer has received so far. */
export function receivedMail(): string[] {
  const dir = state().mailDir;
  return readdirSync(dir).sort().map((file) => readFileSync(join(dir, file), 'utf8'));
}

/** A unique email address for one test. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Fails the test on any page error or hydration warning printed to the console. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /hydrat/i.test(message.text())) problems.push(`${message.type()}: ${message.text()}`);
  });
  return problems;
}

/** Scrolls a form into view, points at it (forms hydrate on the first interaction) and waits until its island has hydrated. */
export async function hydrateForm(page: Page, form: 'newsletter' | 'contact'): Promise<void> {
  const marker = page.locator(`[data-island]:has(form[data-form=${form}])`);
  await page.locator(`form[data-form=${form}]`).scrollIntoViewIfNeeded();
  await page.locator(`form[data-form=${form}]`).hover();
  await expect(marker).toHaveAttribute('data-hydrating', 'true');
  // The submit handler exists once React has attached: the marker gets no further attribute, so
  // wait for the island's module graph to have run (the toaster's live regions are client-owned).
  await page.waitForFunction((f) => {
    const el = document.querySelector(`form[data-form=${f}]`);
    return !!el && Object.keys(el).some((k) => k.startsWith('__react'));
  }, form);
}

/**
 * Brings the page's entrance animations to their end state: a card caught half faded in is not
 * what a reader sees, and on a loaded machine a measurement could otherwise catch one. They are
 * finished rather than waited for: a page that got no frame for a while (a loaded machine) kept
 * them running past the test's timeout. Every animation of the site is finite; an endless one
 * would be a finding of its own, so it fails here.
 */
export async function animationsSettled(page: Page): Promise<void> {
  const endless = await page.evaluate(() =>
    document.getAnimations().flatMap((animation) => {
      if (animation.effect?.getComputedTiming().endTime === Infinity) return [String((animation as CSSAnimation).animationName ?? animation.id)];
      animation.finish();
      return [];
    }),
  );
  expect(endless, 'animations that never end').toEqual([]);
}

/** The rule sets every page is held to: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Rules of those levels that axe-core marks experimental and leaves out unless enabled by name:
 * `label-content-name-mismatch` (WCAG 2.5.3 Label in Name, level A) holds a control's accessible
 * name to contain its visible text, so a voice-control user can say what they see ("click EN").
 */
const AXE_EXPERIMENTAL_RULES = ['label-content-name-mismatch'];

/**
 * Loads axe-core into every document `page` opens from now on, before the page's own scripts: a
 * test that checks page after page then does not inject it after each navigation (about 80 ms a
 * page here). It defines `window.axe` and nothing else.
 */
export async function preloadAxe(page: Page): Promise<void> {
  await page.addInitScript({ content: axe.source });
}

/**
 * Runs axe-core with the WCAG 2.x A/AA rule sets (and their experimental rules named above) once
 * the page has settled, and returns the violations, one line each with the elements they were
 * found on.
 *
 * It calls `axe.run` in the page itself, as `@axe-core/playwright`'s legacy mode does, without
 * the wrapper's per-frame setup (the site has no frames), and asks for the violations only:
 * passes and inapplicable rules are then not collected node by node. The same rules run and the
 * same violations are reported, in about half the time of the wrapper (0.75 → 0.37 s a page).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async ({ tags, experimental }) => {
    const rules = Object.fromEntries(experimental.map((id) => [id, { enabled: true }]));
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
    return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  }, { tags: AXE_TAGS, experimental: AXE_EXPERIMENTAL_RULES });
}

/** The built folder the servers serve. */
export function builtDir(): string {
  return state().outDir;
}

export const test = base.extend<{ url: (path: string) => string; nginxUrl: (path: string) => string }>({
  url: async ({}, use) => {
    const { baseURL } = state();
    await use((path: string) => `${baseURL}${path}`);
  },
  /** A URL of the site served by Debian's nginx with the generated config. */
  nginxUrl: async ({}, use) => {
    const { nginxURL } = state();
    if (!nginxURL) throw new Error('nginx is not installed: run tests/e2e/support/ensure-nginx.sh (Debian: apt-get install -y nginx)');
    await use((path: string) => `${nginxURL}${path}`);
  },
});

export { expect };
