/**
 * The ids of queued webhook events (`webhook-id`): receivers de-duplicate by them, so two events
 * must never share one, and they sort in the order the events were queued.
 */
import { describe, expect, it } from 'vitest';
import { newEventId } from '../../../../ingest/store/webhooks/webhook-row.ts';

describe('newEventId', () => {
  it('gives every event an id of its own, also across the refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newEventId(1_764_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^msg_019ab697e800[0-9a-f]{20}$/);
  });

  it('starts with the time in milliseconds, so later events sort after earlier ones', () => {
    const first = newEventId(1_764_000_000_000);
    const later = newEventId(1_764_000_000_001);
    expect(first.slice(4, 16)).toBe((1_764_000_000_000).toString(16).padStart(12, '0'));
    expect([later, first].sort()).toEqual([first, later]);
  });
});
