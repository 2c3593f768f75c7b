/**
 * Which rows a queue's claim takes, on either backend: `UPDATE … WHERE <claimableIds(due, locksRows)>`.
 * Where rows can be locked (PostgreSQL) the candidates are locked `FOR UPDATE SKIP LOCKED`, so
 * workers in other replicas skip them instead of waiting, and their ids are picked once, before
 * the UPDATE (`id = any(array(…))` is an InitPlan): under `id IN (…)` PostgreSQL is free to run the
 * locking subquery again, and two replicas' claims racing took more rows than their limit in one
 * statement and none in the other (tests/ingest/store/postgres/replicas.test.ts). SQLite has one writer at a
 * time and needs no lock: `id IN (…)`.
 *
 *   claimableIds(select id … limit 32, true)  → "id" = any(array(select id … limit 32 for update skip locked))
 *   claimableIds(select id … limit 32, false) → "id" in (select id … limit 32)
 */
import { type RawBuilder, sql, type SelectQueryBuilder } from 'kysely';

/** The condition on `id` that picks the rows `due` selects, locked and picked once where `locksRows`. */
export function claimableIds<DB, TB extends keyof DB>(due: SelectQueryBuilder<DB, TB, { id: number }>, locksRows: boolean): RawBuilder<boolean> {
  return locksRows ? sql<boolean>`${sql.ref('id')} = any(array${due.forUpdate().skipLocked()})` : sql<boolean>`${sql.ref('id')} in ${due}`;
}
