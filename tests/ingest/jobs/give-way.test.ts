/**
 * How a worker's rounds give way to form submissions: no pause when none arrived during a round; a
 * pause of `factor` times the round (at least 50 ms, at most 2 s) when one did; with `busyAbove`
 * (the mails), only when the event loop was busier than that too; a stopping worker ends every
 * pause at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { giveWay, type GiveWayOptions, PAUSE_BOUNDS_MS } from '../../../ingest/jobs/give-way.ts';
import { MAIL_GIVE_WAY } from '../../../ingest/mail/outbox-worker.ts';

/** A gate over a submissions counter, a clock and an event loop's busy share the test sets. */
function gateWithClock(options: Omit<GiveWayOptions, 'now' | 'loop'> = { factor: 19 }) {
  const state = { submissions: 0, now: 1_000, busy: 1 };
  const gate = giveWay(() => state.submissions, { ...options, now: () => state.now, loop: { read: () => null, busySince: () => state.busy } });
  return { state, gate };
}

/** Resolves to true once `promise` has settled after `ms` of fake time, false if it is still pending. */
async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('giveWay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets the next batch start at once when no submission arrived during the batch', async () => {
    const { state, gate } = gateWithClock();
    const began = gate.begin();
    state.now += 300;
    expect(await settledAfter(gate.after(began), 0)).toBe(true);
  });

  it('pauses 19 times the batch when a submission arrived during it, so deliveries take at most 5 % of the time', async () => {
    const { state, gate } = gateWithClock();
    const began = gate.begin();
    state.now += 10;
    state.submissions += 3;
    const pause = gate.after(began);
    expect(await settledAfter(pause, 189)).toBe(false);
    expect(await settledAfter(pause, 1)).toBe(true);
  });

  it('pauses at least 50 ms after a short batch and at most 2 s after a long one', async () => {
    const { state, gate } = gateWithClock();
    let began = gate.begin();
    state.submissions += 1;
    const short = gate.after(began);
    expect(await settledAfter(short, PAUSE_BOUNDS_MS.min - 1)).toBe(false);
    expect(await settledAfter(short, 1)).toBe(true);

    began = gate.begin();
    state.now += 5_000;
    state.submissions += 1;
    const long = gate.after(began);
    expect(await settledAfter(long, PAUSE_BOUNDS_MS.max - 1)).toBe(false);
    expect(await settledAfter(long, 1)).toBe(true);
  });

  it('ends every pause in progress at once when the worker stops, however many lanes wait', async () => {
    const { state, gate } = gateWithClock();
    const starts = [gate.begin(), gate.begin(), gate.begin()];
    state.now += 50;
    state.submissions += 1;
    const pauses = starts.map((began) => gate.after(began));
    gate.release();
    for (const pause of pauses) expect(await settledAfter(pause, 0)).toBe(true);
  });

  it('keeps the mails at full speed while submissions arrive but the event loop has room, so they keep up with the signups', async () => {
    const { state, gate } = gateWithClock(MAIL_GIVE_WAY);
    const began = gate.begin();
    state.now += 40;
    state.submissions += 25;
    state.busy = 0.6;
    expect(await settledAfter(gate.after(began), 0)).toBe(true);
  });

  it('pauses the mails 9 times the round when submissions arrived and the event loop was busier than 75 %, so a burst keeps 90 % of the time', async () => {
    const { state, gate } = gateWithClock(MAIL_GIVE_WAY);
    const began = gate.begin();
    state.now += 40;
    state.submissions += 100;
    state.busy = 0.97;
    const pause = gate.after(began);
    expect(await settledAfter(pause, 359)).toBe(false);
    expect(await settledAfter(pause, 1)).toBe(true);
  });

  it('never pauses the mails of a busy loop that no submission kept busy (the backlog drains at full speed)', async () => {
    const { state, gate } = gateWithClock(MAIL_GIVE_WAY);
    const began = gate.begin();
    state.now += 40;
    state.busy = 1;
    expect(await settledAfter(gate.after(began), 0)).toBe(true);
  });
});
