/**
 * `ingest export --format csv` as spreadsheets in Europe open it: rows stored through the real
 * store in a real SQLite file, then the file read the way Excel or LibreOffice might read it,
 * with a comma, a semicolon, a tab or a pipe as the list separator, quotes honoured or not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contactSchema, newsletterSchema, plainContactSchema, validate } from '../../../ingest/contract/schemas.ts';
import { csvCell, exportTable } from '../../../ingest/ops/export-rows.ts';
import { sqliteOps } from '../../../ingest/store/sqlite/sqlite-ops-database.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { CONFIRMED, contact, migratedDb, signup, tempDir } from '../fixtures.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function valid<S extends Parameters<typeof validate>[0]>(schema: S, body: unknown) {
  const result = validate(schema, body);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data as never;
}

/** A real SQLite file holding what hostile visitors could submit through the forms. */
async function hostileRows(): Promise<SqliteDatabase> {
  const temp = tempDir();
  const db = await migratedDb(temp.dir);
  cleanups.push(temp.remove, () => db.close());
  const store = await openSubmissionStore(db, {});
  const names = [
    "x;=cmd|' /C calc'!A0",
    'x; =1+1',
    'x;"=1+1',
    'x|@SUM(1)',
    'x,-2+3+cmd',
    'x, +1',
    '=HYPERLINK("http://evil")',
  ];
  for (const [i, name] of names.entries()) await store.subscribe(valid(newsletterSchema, signup({ name, email: `n${i}@example.com` })), Date.now(), CONFIRMED);
  const message = "Hello,\n=cmd|' /C calc'!A0\n- first point\n\t@SUM(1)";
  await store.submitContact(
    valid(contactSchema, contact({ captcha: { token: 't', answer: 0 }, companyName: 'Acme;=1+1', phone: '+34 600 000 000', message })),
    { value: 'nonce-export-00000000001', expiresAt: Date.now() + 600_000 },
    Date.now(),
  );
  await store.close();
  return db;
}

/**
 * The cells a spreadsheet would see if it split `csv` on `separator` and ignored every quote (the
 * worst case: Excel with a `;` separator reading a comma file), with spaces and quotes trimmed.
 */
function naiveCells(csv: string, separator: string): string[] {
  return csv.split(/\r\n|\r|\n/).flatMap((line) => line.split(separator)).map((cell) => cell.replace(/^[\s"]+/, ''));
}

/** RFC 4180 parsing, as a spreadsheet set to a comma separator does it. */
function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i]!;
    if (quoted) {
      if (char === '"' && csv[i + 1] === '"') (cell += '"'), i++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') row.push(cell), (cell = '');
    else if (char === '\r' && csv[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += char;
  }
  return rows;
}

describe('CSV export', () => {
  it("regression: a name x;=cmd|' /C calc'!A0 does not open as a formula in a spreadsheet splitting on ;", async () => {
    const db = await hostileRows();
    for (const table of ['newsletter', 'contacts'] as const) {
      const csv = (await exportTable(sqliteOps(db), { table, format: 'csv' })).text;
      for (const separator of [',', ';', '\t', '|']) {
        const formulas = naiveCells(csv, separator).filter((cell) => /^[=+\-@]/.test(cell));
        expect(formulas, `${table} split on ${JSON.stringify(separator)}`).toEqual([]);
      }
    }
  });

  it('quotes every cell, the header included, and reads back as the stored text with a neutralising apostrophe', async () => {
    const db = await hostileRows();
    const csv = (await exportTable(sqliteOps(db), { table: 'newsletter', format: 'csv' })).text;
    const rows = parseCsv(csv);
    for (const line of csv.split('\r\n').filter(Boolean).slice(0, 1)) expect(line).toMatch(/^"id","name",/);
    expect(rows[0]!.slice(0, 3)).toEqual(['id', 'name', 'email']);
    expect(rows.slice(1).map((row) => row[1])).toEqual([
      "x;'=cmd|' /C calc'!A0",
      "x; '=1+1",
      `x;"'=1+1`,
      "x|'@SUM(1)",
      "x,'-2+3+cmd",
      "x, '+1",
      `'=HYPERLINK("http://evil")`,
    ]);
    expect(rows.slice(1).every((row) => row.length === rows[0]!.length)).toBe(true);
    const contactRow = parseCsv((await exportTable(sqliteOps(db), { table: 'contacts', format: 'csv' })).text)[1]!;
    expect(contactRow).toContain("'+34 600 000 000");
    expect(contactRow).toContain("Acme;'=1+1");
    expect(contactRow).toContain("Hello,\n'=cmd|' /C calc'!A0\n'- first point\n\t'@SUM(1)");
  });

  it('leaves JSON Lines untouched', async () => {
    const db = await hostileRows();
    const rows = (await exportTable(sqliteOps(db), { table: 'newsletter', format: 'jsonl' })).text.trimEnd().split('\n').map((line: string) => JSON.parse(line));
    expect(rows[0].name).toBe("x;=cmd|' /C calc'!A0");
  });

  it('writes numbers and empty values as quoted cells', () => {
    expect([csvCell(12), csvCell(null), csvCell(''), csvCell('a "b"')]).toEqual(['"12"', '""', '""', '"a ""b"""']);
  });
});

describe('what an export leaves out', () => {
  it('regression: a pending signup and an unverified contact message are not exported, and the result counts them with the reason', async () => {
    const temp = tempDir();
    const db = await migratedDb(temp.dir);
    cleanups.push(temp.remove, () => db.close());
    const store = await openSubmissionStore(db, {});
    const now = Date.now();
    const pending = { ...CONFIRMED, status: 'pending', expiresAt: now + 86_400_000 } as const;
    await store.subscribe(valid(newsletterSchema, signup({ email: 'pending@example.com' })), now, pending);
    await store.subscribe(valid(newsletterSchema, signup({ email: 'confirmed@example.com' })), now, CONFIRMED);
    // A message sent without JavaScript: stored until its sender confirms the address.
    await store.submitUnverifiedContact(valid(plainContactSchema, contact({ email: 'unverified@example.com' })), now, now + 86_400_000);
    await store.close();
    const ops = sqliteOps(db);

    const newsletter = await exportTable(ops, { table: 'newsletter', format: 'jsonl' });
    expect(newsletter.text).toContain('confirmed@example.com');
    expect(newsletter.text).not.toContain('pending@example.com');
    expect(newsletter.leftOut).toEqual({ rows: 1, reason: expect.stringMatching(/pending signup/) });

    const contacts = await exportTable(ops, { table: 'contacts', format: 'jsonl' });
    expect([contacts.rows, contacts.text]).toEqual([0, '']);
    expect(contacts.leftOut).toEqual({ rows: 1, reason: expect.stringMatching(/unverified message/) });
  });
});
