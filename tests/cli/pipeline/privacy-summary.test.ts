import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_FACT_NAMES, DATA_FACTS, type DataFact } from '../../../ingest/contract/data-facts.ts';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { markdownFile } from '../../../cli/site/markdown/markdown.ts';
import { fileForPath, pathFor } from '../../../cli/site/routes.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { readBuilt, useBuiltSite } from '../../helpers/built-site.ts';

const built = useBuiltSite();

/** The column of the summary that says how long each kind of data is kept. */
const HOW_LONG = 3;

/**
 * The cells of the table that opens a privacy text, right below its `# ` title, without the
 * header's separator row.
 *
 * @example summaryRows('# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n') // [['a', 'b'], ['1', '2']]
 */
function summaryRows(source: string): string[][] {
  const lines = source.split('\n');
  expect(lines[0]).toMatch(/^# /);
  const start = lines.findIndex((line, i) => i > 0 && line.trim() !== '');
  const end = lines.findIndex((line, i) => i >= start && !line.startsWith('|'));
  return lines
    .slice(start, end)
    .filter((line) => !/^\|[-|\s]+\|$/.test(line))
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
}

/** The facts a cell names through placeholders, in order. */
const factsIn = (cell: string) => [...cell.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);

const source = (lang: Lang) => readFileSync(markdownFile(DEFAULT_PATHS.contentDir, lang, 'privacy'), 'utf8');

/** The built privacy page's text column, from its first element. */
function article(lang: Lang): string {
  const html = readBuilt(built.outDir, fileForPath(pathFor('privacy', lang)));
  const open = /<article class="legal-prose[^"]*">/.exec(html)!;
  return html.slice(open.index + open[0].length, html.indexOf('</article>', open.index));
}

/** The text of each body row's cells in a rendered table. */
function renderedRows(table: string): string[][] {
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
        .replace(/&(amp|lt|gt|quot);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name]!),
    ),
  );
}

describe('the privacy policy opens with its summary', () => {
  const english = summaryRows(source('en'));

  it('in English: five columns (what, why, legal basis, how long, who receives it) and a row per kind of data', () => {
    expect(english[0]).toEqual(['What we keep', 'Why', 'Legal basis', 'How long', 'Who receives it']);
    expect(english.length).toBeGreaterThanOrEqual(5);
  });

  it.each(LANGUAGES)('%s: every duration in the summary is a placeholder of the facts table, the same ones in the same rows as English', (lang) => {
    const rows = summaryRows(source(lang));
    expect(rows.map((row) => row.length)).toEqual(english.map((row) => row.length));
    rows.slice(1).forEach((row, i) => {
      const cell = row[HOW_LONG]!;
      expect(cell.replace(/\{\{\w+\}\}/g, ''), `${lang} row ${i + 1}: a number written by hand`).not.toMatch(/\d/);
      expect(factsIn(cell).every((name) => (DATA_FACT_NAMES as string[]).includes(name)), `${lang} row ${i + 1}: ${cell}`).toBe(true);
      expect(factsIn(cell), `${lang} row ${i + 1}`).toEqual(factsIn(english[i + 1]![HOW_LONG]!));
    });
  });

  it.each(LANGUAGES)('%s: the built page starts, right under its title, with the table, whose durations are the numbers the service applies', (lang) => {
    const text = article(lang).trimStart();
    expect(text.startsWith('<div class="table-scroll"'), text.slice(0, 80)).toBe(true);
    const table = text.slice(0, text.indexOf('</table>'));
    const rendered = renderedRows(table);
    const rows = summaryRows(source(lang)).slice(1);
    expect(rendered).toHaveLength(rows.length);
    rendered.forEach((row, i) => {
      const shown = (row[HOW_LONG]!.match(/\d+/g) ?? []).map(Number);
      expect(shown, `${lang} row ${i + 1}: ${row[HOW_LONG]}`).toEqual(factsIn(rows[i]![HOW_LONG]!).map((name) => DATA_FACTS[name as DataFact]));
    });
    // Paragraphs, not lines joined by <br>: only the supervisory authority's postal address keeps its lines.
    const lineBreaks = [...article(lang).matchAll(/<p>((?:(?!<\/p>)[\s\S])*<br>[\s\S]*?)<\/p>/g)].map((m) => m[1]!);
    expect(lineBreaks.every((paragraph) => paragraph.startsWith('Agencia Española de Protección de Datos (AEPD)<br>')), lineBreaks.join('\n')).toBe(true);
  });
});
