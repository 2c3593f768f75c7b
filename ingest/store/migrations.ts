/**
 * The versioned schema migrations, applied by kysely's Migrator at start-up and by `ingest migrate`.
 *
 * One file per migration under `migrations/<year-month>/`, named as the migration is recorded in
 * `kysely_migration` (names sort in the order they apply); this list imports them, so they work the
 * same under tsx, in the compiled service, in a container and in tests (nothing is loaded from a
 * folder at run time). Each is append-only: never edit one that has shipped; to change the schema,
 * add the next file (dated, with the next number) and its line below. They use only types and
 * constructs SQLite and PostgreSQL share (integer, text, foreign keys with ON DELETE CASCADE, plain
 * unique indexes); where the dialects truly differ they ask `migrations/dialect-columns.ts`.
 */
import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely';
import type { SqlRunner } from './sqlite/connection.ts';
import { initial } from './migrations/2025-01/2025-01-12-001-initial.ts';
import { contactIntentAndSource } from './migrations/2026-11/2026-11-24-002-contact-intent-source.ts';
import { replicaSharedState } from './migrations/2026-11/2026-11-25-003-replica-shared-state.ts';
import { consentLifecycle } from './migrations/2026-11/2026-11-26-004-consent-lifecycle.ts';
import { contactVerification } from './migrations/2026-11/2026-11-27-005-contact-verification.ts';
import { mailCapsAndSignupRequests } from './migrations/2026-11/2026-11-28-006-mail-caps-signup-requests.ts';
import { outboxMessageKey } from './migrations/2026-11/2026-11-28-007-outbox-message-key.ts';
import { webhookDeliveries } from './migrations/2026-11/2026-11-29-008-webhook-deliveries.ts';
import { webhookDeliveriesLean } from './migrations/2026-11/2026-11-30-009-webhook-deliveries-lean.ts';
import { contactWebhookWaiting } from './migrations/2026-12/2026-12-01-010-contact-webhook-waiting.ts';
import { webhookOrder } from './migrations/2026-12/2026-12-02-011-webhook-order.ts';

/** Every migration by name; names sort in the order they apply. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '2025-01-12-001-initial': initial,
  '2026-11-24-002-contact-intent-source': contactIntentAndSource,
  '2026-11-25-003-replica-shared-state': replicaSharedState,
  '2026-11-26-004-consent-lifecycle': consentLifecycle,
  '2026-11-27-005-contact-verification': contactVerification,
  '2026-11-28-006-mail-caps-signup-requests': mailCapsAndSignupRequests,
  '2026-11-28-007-outbox-message-key': outboxMessageKey,
  '2026-11-29-008-webhook-deliveries': webhookDeliveries,
  '2026-11-30-009-webhook-deliveries-lean': webhookDeliveriesLean,
  '2026-12-01-010-contact-webhook-waiting': contactWebhookWaiting,
  '2026-12-02-011-webhook-order': webhookOrder,
};

/**
 * Applies every pending migration in order; returns kysely's result set, never throws for a failed
 * migration. `schema` names the PostgreSQL schema that holds kysely's own tables (the current one),
 * so a table of that name in another schema is never mistaken for it.
 */
export function migrateToLatest(db: Kysely<any>, schema?: string): Promise<MigrationResultSet> {
  const provider = { getMigrations: async () => ({ ...MIGRATIONS }) };
  return new Migrator({ db, provider, ...(schema === undefined ? {} : { migrationTableSchema: schema }) }).migrateToLatest();
}

/** True when `applied` (names from `kysely_migration`) holds every migration. */
export function allApplied(applied: Iterable<string>): boolean {
  const names = new Set(applied);
  return Object.keys(MIGRATIONS).every((name) => names.has(name));
}

/** Tells synchronously whether every migration has been applied (for `/readyz`); false when the database cannot be read. */
export function schemaIsCurrent(db: { kysely: Kysely<any>; sql: SqlRunner }): boolean {
  try {
    const rows = db.sql.all<{ name: string }>(db.kysely.selectFrom('kysely_migration').select('name'));
    return allApplied(rows.map((row) => row.name));
  } catch {
    return false;
  }
}
