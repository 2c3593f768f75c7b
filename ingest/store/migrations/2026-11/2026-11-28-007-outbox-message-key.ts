import { type Kysely, type Migration, sql } from 'kysely';
import { isPostgres } from '../dialect-columns.ts';

/**
 * Each outbox row gets the random part of its mail's Message-ID (`message_key`): ids derived from
 * row ids alone came back on every fresh database (staging and production, a restore), and a
 * mailbox may drop a real mail as a duplicate. New rows get theirs from `outbox-row.ts` (a column
 * DEFAULT cannot be random on both backends); rows from before get a random one each here.
 * SQLite adds a NOT NULL column only with a constant default, which would let a forgotten key
 * pass as '', so the column is NOT NULL on PostgreSQL alone; the types require it on both.
 */
export const outboxMessageKey: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('outbox').addColumn('message_key', 'text').execute();
    if (isPostgres(db)) {
      await sql`update outbox set message_key = md5(random()::text || clock_timestamp()::text || id::text)`.execute(db);
      await sql`alter table outbox alter column message_key set not null`.execute(db);
    } else {
      await sql`update outbox set message_key = lower(hex(randomblob(16)))`.execute(db);
    }
  },
};
