/**
 * The hero's before/after table: a visitor reads each row left to right, from the value production
 * holds to the value a masked copy receives, in every language.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { MaskingTable } from '../../../templates/visuals/MaskingTable.tsx';
import { allOf, renderTemplate, textOf, translatorFor, withoutHidden } from '../render-template.tsx';

/** The table's rows as a screen reader meets them: the row header, then the original and masked cells. */
function rowsOf(html: string) {
  const body = html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'));
  return allOf(body, /<tr[^>]*>([\s\S]*?)<\/tr>/g).map((row) => ({
    header: textOf(allOf(row, /<th[^>]*>([\s\S]*?)<\/th>/g)[0] ?? ''),
    cells: allOf(withoutHidden(row), /<td[^>]*>([\s\S]*?)<\/td>/g).map(textOf),
  }));
}

describe.each(LANGUAGES)('the masking table in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, MaskingTable);

  it('has the columns column, original, masked, in that order', () => {
    const head = withoutHidden(html.slice(html.indexOf('<thead'), html.indexOf('</thead>')));
    expect(allOf(head, /<th scope="col"[^>]*>([\s\S]*?)<\/th>/g).map(textOf)).toEqual([
      t('hero.table.column'),
      t('hero.table.original'),
      t('hero.table.masked'),
    ]);
  });

  it('shows the real-looking values under original and the masked ones under masked', () => {
    expect(rowsOf(html)).toEqual([
      { header: `${t('hero.table.name')} ${t('hero.table.substitution')}`, cells: ['María García López', 'Lucía Romero Vidal'] },
      { header: `${t('hero.table.email')} ${t('hero.table.encryption')}`, cells: ['m.garcia@mail.es', 'k.wqrtnz@mail.es'] },
      { header: `${t('hero.table.card')} ${t('hero.table.partial')}`, cells: ['4539 1488 0343 6467', '4539 •••• •••• 6467'] },
      { header: `${t('hero.table.birthDate')} ${t('hero.table.shuffling')}`, cells: ['1984-03-12', '1979-08-23'] },
    ]);
  });

  it('is a figure named by its caption', () => {
    expect(html).toMatch(/^<figure aria-labelledby="masking-table-caption"/);
    expect(textOf(allOf(html, /<figcaption id="masking-table-caption"[^>]*>([\s\S]*?)<\/figcaption>/g)[0] ?? '')).toBe(textOf(t('hero.table.caption')));
  });
});

it('regression: the card number shows in full under original and as dots under masked (the old mock read backwards)', () => {
  const card = rowsOf(renderTemplate('en', MaskingTable)).find((row) => row.header.startsWith('Card number'));
  const [original, masked] = card!.cells;
  expect(original).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
  expect(masked).toMatch(/^\d{4} •••• •••• \d{4}$/);
  expect(masked!.slice(-4)).toBe(original!.slice(-4));
});
