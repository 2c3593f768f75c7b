import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Contacts sent without JavaScript carry no captcha: they wait for their sender to confirm the
 * address (`verified_at` null until then; `expires_at` says when an unconfirmed one is deleted).
 * Rows from before were all verified by their captcha, when they were received.
 */
export const contactVerification: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('verified_at', 'text').execute();
    await db.schema.alterTable('contacts').addColumn('expires_at', 'text').execute();
    await sql`update contacts set verified_at = created_at`.execute(db);
  },
};
