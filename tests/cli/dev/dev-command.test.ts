import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { siteRoutes } from '../../../cli/site/routes.ts';
import { contentCopy, type DevProcess, expectDevStopsOn, startDev } from '../../helpers/dev-server.ts';

// `sitegen dev` as a user runs it: a real process on real ports, its content a temporary copy.

/** One server-sent event. */
interface DevEvent {
  event: string;
  data: unknown;
}

/** Opens the dev server's event stream as the tab showing `file` at `version` would, collecting its events. */
function openTab(url: string, file: string, version: string): { events: DevEvent[]; close: () => void } {
  const events: DevEvent[] = [];
  let buffer = '';
  const req = request(`${url}/__sitegen/events?${new URLSearchParams({ file, version })}`, (res: IncomingMessage) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ? JSON.parse(data) : null });
      }
    });
  });
  req.on('error', () => {});
  req.end();
  return { events, close: () => req.destroy() };
}

/** The page's HTML and the version the dev server says it is. */
async function page(url: string, path: string): Promise<{ html: string; file: string; version: string }> {
  const html = await (await fetch(url + path)).text();
  const src = /src="\/__sitegen\/dev-client\.js\?([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const params = new URLSearchParams(src);
  return { html, file: params.get('file') ?? '', version: params.get('version') ?? '' };
}

/** Every file under `dir` with its modification time, or null when it does not exist. */
function snapshot(dir: string): Record<string, number> | null {
  if (!existsSync(dir)) return null;
  const files: Record<string, number> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) files[name] = statSync(join(dir, name)).mtimeMs;
  return files;
}

const TITLE = 'Schützen Sie sensible Daten in jeder Datenbankkopie';

describe('sitegen dev, editing content', () => {
  let dev: DevProcess;
  let contentDir: string;
  let distBefore: Record<string, number> | null;

  beforeAll(async () => {
    distBefore = snapshot(DEFAULT_PATHS.outDir);
    contentDir = contentCopy();
    dev = await startDev({ contentDir });
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
  });

  it('an edit to a string in de.json reloads an open /de tab with the new text and renders no other language', async () => {
    const [de, fr] = [await page(dev.url, '/de'), await page(dev.url, '/fr')];
    expect(de.html).toContain(TITLE);
    const [deTab, frTab] = [openTab(dev.url, de.file, de.version), openTab(dev.url, fr.file, fr.version)];
    try {
      const file = join(contentDir, 'locales', 'de.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace(TITLE, 'Sensible Daten schützen, jetzt live'));

      await expect.poll(() => deTab.events.map((e) => e.event), { timeout: 10_000 }).toContain('reload');
      expect((await page(dev.url, '/de')).html).toContain('Sensible Daten schützen, jetzt live');
      expect(frTab.events).toEqual([]);
      expect((await page(dev.url, '/fr')).version).toBe(fr.version);
      const rendered = /content\/locales\/de\.json: (\d+) page\(s\) rendered/.exec(dev.output());
      // At most German's pages and its 404 page, not those of all seven languages.
      const germanPages = siteRoutes(loadContentPages(contentDir).pages).allRoutes(['de']).length + 1;
      expect(Number(rendered?.[1])).toBeGreaterThan(0);
      expect(Number(rendered?.[1])).toBeLessThanOrEqual(germanPages);
    } finally {
      deTab.close();
      frTab.close();
    }
  });

  it('a broken edit sends the problem to the open tabs with file:line and the offending text; the fix clears it', async () => {
    const de = await page(dev.url, '/de');
    const tab = openTab(dev.url, de.file, de.version);
    const file = join(contentDir, 'locales', 'de.json');
    const good = readFileSync(file, 'utf8');
    try {
      const lines = good.split('\n');
      const broken = lines.findIndex((line) => line.includes('"eyebrow"'));
      lines[broken] = lines[broken]!.replace(/",$/, ',');
      writeFileSync(file, lines.join('\n'));
      await expect.poll(() => tab.events.map((e) => e.event), { timeout: 10_000 }).toContain('problems');
      const [problem] = tab.events.find((e) => e.event === 'problems')!.data as { location: string; message: string; excerpt: { text: string; offending: boolean }[] }[];
      expect(problem!.location).toMatch(/locales\/de\.json:\d+$/);
      expect(Number(problem!.location.split(':').pop())).toBeGreaterThanOrEqual(broken + 1);
      expect(problem!.message).toMatch(/JSON/);
      expect(problem!.excerpt.map((l) => l.text)).toContain(lines[broken]);
      // The tab keeps the last page that built.
      expect((await page(dev.url, '/de')).version).toBe(de.version);

      writeFileSync(file, good);
      await expect.poll(() => tab.events.map((e) => e.event), { timeout: 10_000 }).toContain('ok');
    } finally {
      tab.close();
    }
  });

  it('never writes into dist/', () => {
    expect(snapshot(DEFAULT_PATHS.outDir)).toEqual(distBefore);
  });

  // Stopped here, after the edits, rather than started anew for it: a start is a whole first build.
  // SIGTERM has its test in dev-server-requests.test.ts, on that file's running server.
  it('regression: SIGINT stops the site server and the ingest service: nothing is left listening', async () => {
    await expectDevStopsOn(dev, 'SIGINT');
  }, 60_000);
});
