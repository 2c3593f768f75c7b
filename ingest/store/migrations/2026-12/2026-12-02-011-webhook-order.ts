import { type Kysely, type Migration, sql } from 'kysely';
import { isPostgres } from '../dialect-columns.ts';

/**
 * Events about one person reach each endpoint in order (issue 40). Each delivery row gets the
 * event's per-person sequence (`seq`; the rows queued before it take their id, which is smaller than
 * any sequence queued since) and the address as that event spelled it (`email`, for `person.erased`
 * after the body is gone). `webhook_sequences` holds each address's last sequence: the conditional
 * upsert that takes the next one also locks it, so two replicas queueing about one person take
 * turns. The partial index holds the rows not yet finished (they have a body): the claim's "is an
 * older event to this endpoint about this person still on its way" and a newer state's supersession
 * look there, a handful of rows, without reading the delivered records.
 */
export const webhookOrder: Migration = {
  async up(db: Kysely<unknown>) {
    const bigint = isPostgres(db) ? 'bigint' : 'integer';
    await db.schema.alterTable('webhook_deliveries').addColumn('seq', bigint).execute();
    await db.schema.alterTable('webhook_deliveries').addColumn('email', 'text').execute();
    await db.updateTable('webhook_deliveries' as never).set({ seq: sql.ref('id') } as never).execute();
    await db.schema
      .createIndex('webhook_deliveries_unfinished')
      .on('webhook_deliveries')
      .columns(['email_lower', 'endpoint', 'seq'])
      .where(sql.ref('body'), 'is not', null)
      .execute();
    await db.schema
      .createTable('webhook_sequences')
      .addColumn('email_lower', 'text', (c) => c.primaryKey())
      .addColumn('seq', bigint, (c) => c.notNull())
      .execute();
  },
};
