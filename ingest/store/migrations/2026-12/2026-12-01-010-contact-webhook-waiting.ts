import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A lead's `contact.received` event rides on its contact row until a webhook worker queues it
 * (`store/webhooks/waiting-contacts.ts`): the submission writes one flag in the row it inserts
 * anyway, not a delivery row with a second copy of the message, and the worker expands the flagged
 * rows into delivery rows off the submission path. The partial index holds only the flagged rows,
 * a handful at any time, so the worker finds them without reading the table.
 */
export const contactWebhookWaiting: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('webhook_waiting', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('contacts_webhook_waiting').on('contacts').column('id').where(sql.ref('webhook_waiting'), '=', 1).execute();
  },
};
