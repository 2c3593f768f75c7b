/**
 * Many rows in one fixed statement: the rows go to PostgreSQL as one array per column and come out
 * of `unnest` in their order, so the statement's text is the same whatever the number of rows. A
 * statement with a VALUES list of n rows was a different text for each n, which the service built
 * and PostgreSQL parsed and planned anew every time (issue 45); this one is prepared once per
 * connection (`pg-transaction.ts` names it).
 *
 *   unnestSelect([['email', 'text'], ['n', 'int']], 1)
 *   → 'SELECT email, n FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS t(email, n, position) ORDER BY position'
 *   unnestArrays([['email', 'text'], ['n', 'int']], [{ email: 'a@x', n: 1 }, { email: 'b@x', n: 2 }])
 *   → [['a@x', 'b@x'], [1, 2]]
 *
 * `ORDER BY position` keeps the caller's order, in which an insert takes its index locks: callers
 * sort their rows (by address, by mailbox) so two transactions lock them in one order.
 */

/** A column written from an array, with the PostgreSQL type of the array's elements. */
export type UnnestColumn<Column extends string> = readonly [Column, 'text' | 'int'];

/** The columns' names, comma-separated: `columnList([['a', 'text'], ['b', 'int']])` → `'a, b'`. */
export function columnList(columns: ReadonlyArray<UnnestColumn<string>>): string {
  return columns.map(([column]) => column).join(', ');
}

/**
 * `SELECT <columns> FROM unnest($first::type[], …)` in the arrays' order; `$first` is the first
 * array's parameter, and `select` what the SELECT lists (the columns, unless given).
 */
export function unnestSelect(columns: ReadonlyArray<UnnestColumn<string>>, first: number, select = columnList(columns)): string {
  const arrays = columns.map(([, type], index) => `$${first + index}::${type}[]`).join(', ');
  return `SELECT ${select} FROM unnest(${arrays}) WITH ORDINALITY AS t(${columnList(columns)}, position) ORDER BY position`;
}

/** `INSERT INTO <table> (<columns>) SELECT … FROM unnest(…)`, the arrays from parameter `$first` on. */
export function unnestInsert(table: string, columns: ReadonlyArray<UnnestColumn<string>>, first = 1): string {
  return `INSERT INTO ${table} (${columnList(columns)}) ${unnestSelect(columns, first)}`;
}

/** The statement's parameters for `rows`: one array per column, a missing value as null. */
export function unnestArrays<Column extends string>(columns: ReadonlyArray<UnnestColumn<Column>>, rows: ReadonlyArray<Partial<Record<Column, unknown>>>): unknown[][] {
  return columns.map(([column]) => rows.map((row) => row[column] ?? null));
}
