import { expect, test } from './support/fixtures.ts';

// The home page's product visuals as a visitor meets them in the browser: the masking table reads
// from original to masked at every width (on phones its rows stack, and stay a table for screen
// readers), and every figure is named by its caption.

for (const width of [390, 1280]) {
  test(`at ${width} px the masking table reads from the original value to the masked one`, async ({ page, url }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url('/de'));
    const figure = page.getByRole('figure', { name: /Derselbe Kundendatensatz/ });
    const table = figure.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText(['Spalte', 'Original →', 'Maskiert']);
    const card = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Kartennummer/ }) });
    const [original, masked] = [card.getByRole('cell').nth(0), card.getByRole('cell').nth(1)];
    await expect(original).toContainText('4539 1488 0343 6467');
    await expect(masked).toContainText('4539 •••• •••• 6467');
    const [o, m] = [(await original.boundingBox())!, (await masked.boundingBox())!];
    // Side by side, original first: the eye goes left to right.
    expect(m.x).toBeGreaterThan(o.x + o.width - 1);
    expect(Math.abs(m.y - o.y)).toBeLessThan(4);
  });
}

test('every figure of the home page has an accessible name, in English and in French', async ({ page, url }) => {
  for (const path of ['/', '/fr']) {
    await page.goto(url(path));
    const figures = page.getByRole('figure');
    await expect(figures).toHaveCount(1);
    for (const figure of await figures.all()) {
      const id = await figure.getAttribute('aria-labelledby');
      await expect(page.locator(`figcaption#${id}`)).not.toBeEmpty();
    }
  }
});

test('the compatibility card shows the databases available today and leads to the roadmap, without JavaScript', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('/es'));
  const card = page.locator('#overview article[data-card=compatibility]');
  const list = card.locator('dl');
  await expect(list).toHaveAccessibleName('Bases de datos compatibles');
  await expect(list.getByRole('term')).toHaveText(['Disponibles']);
  await expect(list.getByRole('definition').getByRole('listitem')).toHaveText(['MySQL', 'MariaDB', 'Aurora RDS', 'Percona Server']);
  await card.getByRole('link', { name: 'Cómo funciona y qué está por llegar' }).click();
  await expect(page).toHaveURL(url('/es/como-funciona'));
  const roadmap = page.locator('main section[aria-labelledby=databases]').locator('dl');
  await expect(roadmap.getByRole('term')).toHaveText(['Disponibles', 'Muy pronto', 'Previstas']);
  await expect(roadmap.getByRole('definition').nth(1).getByRole('listitem')).toHaveText(['Cassandra', 'ScyllaDB']);
  await expect(roadmap.getByRole('definition').nth(2).getByRole('listitem')).toHaveText(['PostgreSQL']);
  await context.close();
});

test('the how-it-works page shows proxy mode and the interactive client side by side at 1280 px, one above the other at 390 px', async ({ page, url }) => {
  for (const [width, sideBySide] of [[1280, true], [390, false]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url('/how-it-works'));
    const proxy = (await page.getByRole('heading', { level: 3, name: 'Proxy mode' }).boundingBox())!;
    const client = (await page.getByRole('heading', { level: 3, name: 'Interactive client' }).boundingBox())!;
    if (sideBySide) expect(Math.abs(proxy.y - client.y)).toBeLessThan(4);
    else expect(client.y).toBeGreaterThan(proxy.y + proxy.height);
    for (const figure of await page.getByRole('figure').all()) {
      const id = await figure.getAttribute('aria-labelledby');
      await expect(page.locator(`figcaption#${id}`)).not.toBeEmpty();
    }
  }
});
