import { type Kysely, type Migration } from 'kysely';

/**
 * Why the visitor wrote and where from, for the sales email. SQLite adds one column per ALTER
 * TABLE, and a NOT NULL column needs a constant default there; both hold in PostgreSQL too.
 */
export const contactIntentAndSource: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('intent', 'text', (c) => c.notNull().defaultTo('general')).execute();
    await db.schema.alterTable('contacts').addColumn('source_page', 'text').execute();
  },
};
