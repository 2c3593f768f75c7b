/**
 * How webhook batches give way to form submissions: no pause when none arrived during a batch; a
 * pause of 19 times the batch (at least 50 ms, at most 2 s) when one did; a stopping worker ends
 * a pause at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { giveWay, PAUSE_BOUNDS_MS } from '../../../ingest/webhooks/give-way.ts';

/** A gate over a submissions counter and a clock the test moves. */
function gateWithClock() {
  const state = { submissions: 0, now: 1_000 };
  const gate = giveWay(
    () => state.submissions,
    19,
    () => state.now,
  );
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

  it('ends a pause at once when the worker stops', async () => {
    const { state, gate } = gateWithClock();
    const began = gate.begin();
    state.now += 50;
    state.submissions += 1;
    const pause = gate.after(began);
    gate.release();
    expect(await settledAfter(pause, 0)).toBe(true);
  });
});
