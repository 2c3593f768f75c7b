import { type Kysely, type Migration } from 'kysely';

/**
 * Queueing a webhook event is on the submission path (issue 27: at most 10 % of it), and every
 * index is written with each event. The address index put each new row on a random page of it;
 * the event id index served only operator commands. Export, erasure and `ingest webhooks retry
 * --id`, rare operator commands, find their rows by scanning the table; the workers' claims keep
 * the due index. Event ids stay unique by construction (time and 80 random bits, webhook-row.ts).
 */
export const webhookDeliveriesLean: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_email_lower').execute();
    await db.schema.dropIndex('webhook_deliveries_event_endpoint').execute();
  },
};
