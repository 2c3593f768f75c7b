import { type Kysely, type Migration } from 'kysely';
import { idColumn } from '../dialect-columns.ts';

/**
 * Webhook deliveries (issue 27), one row per event and endpoint; see `WebhookDeliveriesTable`.
 * Claimed by due time like the outbox; found by person for export and erasure (indexed until 009);
 * one row per event and endpoint, whichever replica queues it.
 */
export const webhookDeliveries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text')
      .addColumn('body', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('webhook_deliveries_event_endpoint').on('webhook_deliveries').columns(['event_id', 'endpoint']).unique().execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_email_lower').on('webhook_deliveries').column('email_lower').execute();
  },
};
