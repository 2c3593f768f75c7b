import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { contentCopy, type DevProcess, projectCopy, startDev } from '../helpers/dev-server.ts';

// `sitegen dev` in real Chromium: a real dev process on a copy of the content (or, for template
// edits, of the project), an open tab, files saved as an editor saves them.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const TITLE = 'Schützen Sie sensible Daten in jeder Datenbankkopie';

/** The overlay's accessibility problems (axe, WCAG A/AA): it must be readable and operable like the site. */
async function overlayViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('sitegen-error-overlay').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help}`);
}

test.describe('sitegen dev, editing content', () => {
  let dev: DevProcess;
  let strings: string;

  test.beforeAll(async () => {
    const contentDir = contentCopy();
    strings = join(contentDir, 'locales', 'de.json');
    dev = await startDev({ contentDir });
  });
  test.afterAll(async () => {
    await dev?.stop();
  });

  test('saving a string in de.json reloads the open /de page with the new text', async ({ page }) => {
    await page.goto(`${dev.url}/de`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLE);
    writeFileSync(strings, readFileSync(strings, 'utf8').replace(TITLE, 'Sensible Daten schützen – live bearbeitet'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sensible Daten schützen – live bearbeitet');
  });

  test('a broken edit shows an accessible overlay with file:line, the message and the offending text; fixing it clears it', async ({ page }) => {
    await page.goto(`${dev.url}/de`);
    const good = readFileSync(strings, 'utf8');
    const lines = good.split('\n');
    const broken = lines.findIndex((line) => line.includes('"eyebrow"'));
    lines[broken] = lines[broken]!.replace(/",$/, ',');
    writeFileSync(strings, lines.join('\n'));

    const overlay = page.getByRole('alertdialog');
    await expect(overlay).toBeVisible();
    await expect(overlay).toContainText(/locales\/de\.json:\d+/);
    await expect(overlay).toContainText('cannot be read as JSON');
    await expect(overlay).toContainText(lines[broken]!.trim());
    await expect(overlay).toBeFocused();
    expect(await overlayViolations(page)).toEqual([]);
    // The page underneath is the last one that built.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sensible Daten schützen – live bearbeitet');

    writeFileSync(strings, good);
    await expect(overlay).toHaveCount(0);
  });
});

test.describe('sitegen dev, editing templates', () => {
  let dev: DevProcess;
  let template: string;
  let original: string;

  test.beforeAll(async () => {
    const root = projectCopy();
    template = join(root, 'templates', 'pages', 'AboutPage.tsx');
    original = readFileSync(template, 'utf8');
    dev = await startDev({ root });
  });
  test.afterAll(async () => {
    await dev?.stop();
  });

  test('saving a template reloads the page using it; a syntax error shows the overlay at its line until fixed', async ({ page }) => {
    await page.goto(`${dev.url}/fr/about`);
    writeFileSync(template, original.replace('</h2>', ' (modifié)</h2>'));
    await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: '(modifié)' }).first()).toBeVisible();

    const lines = original.split('\n');
    const broken = lines.findIndex((line) => line.includes('</h2>'));
    lines[broken] = lines[broken]!.replace('</h2>', '</h3>');
    writeFileSync(template, lines.join('\n'));
    const overlay = page.getByRole('alertdialog');
    await expect(overlay).toContainText(`templates/pages/AboutPage.tsx:${broken + 1}`);
    await expect(overlay).toContainText('template_failed');
    await expect(overlay).toContainText(lines[broken]!.trim());

    writeFileSync(template, original);
    await expect(overlay).toHaveCount(0);
    await expect(page.getByText('(modifié)')).toHaveCount(0);
  });
});
