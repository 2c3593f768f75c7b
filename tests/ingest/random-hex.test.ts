/** The random ids of the busiest path: hex of the asked length, and never the same twice, across refills of the pool. */
import { describe, expect, it } from 'vitest';
import { randomHex } from '../../ingest/random-hex.ts';

describe('randomHex', () => {
  it('gives lower-case hex digits, two for each byte asked', () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(10)).toMatch(/^[0-9a-f]{20}$/);
  });

  it('never gives the same id twice, over many refills of its pool', () => {
    const ids = Array.from({ length: 20_000 }, () => randomHex(16));
    expect(new Set(ids).size).toBe(ids.length);
    // The bytes are spread as random bytes are: every hex digit about equally often.
    const counts = new Map<string, number>();
    for (const digit of ids.join('')) counts.set(digit, (counts.get(digit) ?? 0) + 1);
    expect(counts.size).toBe(16);
    for (const count of counts.values()) expect(count / (ids.length * 32)).toBeCloseTo(1 / 16, 2);
  });
});
