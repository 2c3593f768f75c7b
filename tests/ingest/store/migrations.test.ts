/**
 * The migrations are one file each under `ingest/store/migrations/<year-month>/`, named as
 * `kysely_migration` records them: a file added without its line in the list (or a line without its
 * file) would never run, or run under another name than the one a database already recorded.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { MIGRATIONS } from '../../../ingest/store/migrations.ts';

const FOLDER = join(PROJECT_ROOT, 'ingest/store/migrations');

/** Every migration file, as `<year-month>/<name>.ts`. */
function migrationFiles(): string[] {
  return readdirSync(FOLDER, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((month) => readdirSync(join(FOLDER, month.name)).map((file) => `${month.name}/${file}`));
}

describe('the migration files', () => {
  it('are exactly the list, each in the folder of its month, the list in the order the names sort', () => {
    const listed = Object.keys(MIGRATIONS);
    expect(migrationFiles().sort()).toEqual(listed.map((name) => `${name.slice(0, 7)}/${name}.ts`).sort());
    expect(listed).toEqual([...listed].sort());
  });
});
