/**
 * `ingest purge --older-than 730d`: the retention rule. Deletes newsletter and contact rows
 * created before the cut-off (their outbox rows go with them) and captcha nonces that have
 * expired, in one transaction.
 */
import { isoAt } from '../clock.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import { deletePersonalRows, type PersonalRowsReport } from './delete-personal-rows.ts';

/** How many rows were removed, per table. */
export interface PurgeReport extends PersonalRowsReport {
  captcha_nonces: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Parses a retention age in days: `parseAge('730d')` → 63072000000 ms; anything else → null. */
export function parseAge(text: string): number | null {
  const match = /^(\d{1,6})d$/.exec(text.trim());
  return match ? Number(match[1]) * DAY_MS : null;
}

/** Deletes what was created before `cutoff` (ms since the epoch) and the nonces expired by `now`. */
export function purgeOlderThan(db: OpsDatabase, cutoff: number, now: number): Promise<PurgeReport> {
  return db.transaction(async (tx) => ({
    ...(await deletePersonalRows(db.kysely, tx, { column: 'created_at', op: '<', value: isoAt(cutoff) })),
    captcha_nonces: await tx.run(db.kysely.deleteFrom('captcha_nonces').where('expires_at', '<', isoAt(now))),
  }));
}
