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

test('the compatibility card shows each database under its status, without JavaScript', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('/es'));
  const list = page.locator('#overview article[data-card=compatibility] dl');
  await expect(list).toHaveAccessibleName('Bases de datos compatibles');
  await expect(list.getByRole('term')).toHaveText(['Disponibles', 'Muy pronto', 'Previstas']);
  await expect(list.getByRole('definition').nth(0).getByRole('listitem')).toHaveText(['MySQL', 'MariaDB', 'Aurora RDS', 'Percona Server']);
  await expect(list.getByRole('definition').nth(1).getByRole('listitem')).toHaveText(['Cassandra', 'ScyllaDB']);
  await expect(list.getByRole('definition').nth(2).getByRole('listitem')).toHaveText(['PostgreSQL']);
  await context.close();
});
