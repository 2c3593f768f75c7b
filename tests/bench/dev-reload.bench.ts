/**
 * `npm run bench:dev`: save-to-reload in `sitegen dev`, as a content maintainer sees it. A real
 * `sitegen dev` runs on a copy of the project (the checkout is never edited) and Chromium shows
 * a page; each edit is a file write, timed from just before the write until the reloaded page
 * has fired `load` (HTML, CSS and scripts in), and checked to show the edit. Ten edits of each
 * kind after one warm-up; targets (issue 17): string edit ≤ 300 ms, template edit ≤ 1 s (median).
 * `--smoke`: one edit of each kind after the warm-up, no target judged.
 *
 * The page is read with `textContent`, which no CSS changes: `innerText` returns what the styles
 * show, and an `uppercase` heading turned the marker "· edit 3" into "· EDIT 3" (issue 30).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { projectCopy, startDev } from '../helpers/dev-server.ts';
import { SMOKE, skippedRow, targetColumns } from './smoke.ts';

const EDITS = SMOKE ? 1 : 10;

interface EditKind {
  name: string;
  path: string;
  file: string;
  targetMs: number;
  /** The file's text with edit number `n`, and the text the page shows after it. */
  edit: (original: string, n: number) => { text: string; shows: string };
}

const root = projectCopy();
const KINDS: EditKind[] = [
  {
    name: 'string (de.json → /de)',
    path: '/de',
    file: join(root, 'content', 'locales', 'de.json'),
    targetMs: 300,
    edit: (original, n) => {
      const title = (JSON.parse(original) as { hero: { title: string } }).hero.title;
      return { text: replaceOnce(original, `"${title}"`, `"${title} ${n}"`), shows: `${title} ${n}` };
    },
  },
  {
    name: 'template (AboutPage.tsx → /de/about)',
    path: '/de/about',
    file: join(root, 'templates', 'pages', 'AboutPage.tsx'),
    targetMs: 1000,
    edit: (original, n) => ({ text: replaceOnce(original, '</h2>', ` · edit ${n}</h2>`), shows: `· edit ${n}` }),
  },
];

/** `text` with the first `search` replaced; throws when `search` is gone (an edit that changes nothing never reloads). */
function replaceOnce(text: string, search: string, replacement: string): string {
  if (!text.includes(search)) throw new Error(`the file to edit no longer holds ${JSON.stringify(search)}: change this benchmark's edit`);
  return text.replace(search, replacement);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Writes the edit and resolves with the milliseconds until the page has reloaded showing it. */
async function timeEdit(page: Page, kind: EditKind, original: string, n: number): Promise<number> {
  const { text, shows } = kind.edit(original, n);
  const loaded = page.waitForEvent('load', { timeout: 15_000 });
  const started = performance.now();
  writeFileSync(kind.file, text);
  await loaded;
  const elapsed = performance.now() - started;
  const body = await page.locator('body').evaluate((element) => element.textContent ?? '');
  if (!body.includes(shows)) throw new Error(`${kind.name}: the reloaded page does not show "${shows}"`);
  return elapsed;
}

/** Times the warm-up and `EDITS` edits of one kind on the page at `kind.path`, then restores the file; returns its table row. */
async function measureKind(page: Page, kind: EditKind, devOutput: () => string, devUrl: string): Promise<Record<string, string | number>> {
  const original = readFileSync(kind.file, 'utf8');
  await page.goto(devUrl + kind.path);
  const logged = devOutput().length;
  try {
    await timeEdit(page, kind, original, 0); // warm-up: the first edit compiles what the next reuse
    const times: number[] = [];
    for (let n = 1; n <= EDITS; n++) {
      times.push(await timeEdit(page, kind, original, n));
      // A pause between saves, as between a person's edits.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const server = [...devOutput().slice(logged).matchAll(/rendered, \d+ changed, in (\d+) ms/g)].map((m) => Number(m[1])).slice(1);
    return {
      edits: EDITS,
      'median ms': Math.round(median(times)),
      'min ms': Math.round(Math.min(...times)),
      'max ms': Math.round(Math.max(...times)),
      'of which rebuild (median ms)': server.length > 0 ? median(server) : '?',
      ...targetColumns({ 'target ms': kind.targetMs, met: median(times) <= kind.targetMs ? 'yes' : 'NO' }),
    };
  } finally {
    writeFileSync(kind.file, original);
    // Let the rebuild of the restored file (and the reload it causes) pass before the next kind.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** Chromium as the browser tests use it: Debian's, or Playwright's own; null when neither is installed. */
function chromiumPath(): string | undefined | null {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return existsSync(chromium.executablePath()) ? undefined : null;
}

const rows: Record<string, Record<string, string | number>> = {};
const executablePath = chromiumPath();
try {
  if (executablePath === null) {
    for (const kind of KINDS) rows[kind.name] = skippedRow('no Chromium here (apt-get install -y chromium)');
  } else {
    const dev = await startDev({ root });
    try {
      const browser = await chromium.launch({
        executablePath,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
      try {
        const page = await browser.newPage();
        for (const kind of KINDS) rows[kind.name] = await measureKind(page, kind, dev.output, dev.url);
      } finally {
        await browser.close();
      }
    } finally {
      await dev.stop();
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(`\nsitegen dev: save-to-reload (file written → reloaded page fired load and shows the edit), Chromium, this machine${SMOKE ? ', smoke run' : ''}\n`);
console.table(rows);
