import { describe, expect, it } from 'vitest';
import { lastChanged, pageContentHash, w3cTime } from '../../../../cli/pipeline/cache/page-changes.ts';

const page = (title: string, main: string, footer: string) =>
  `<html><head><title>${title}</title><meta name="description" content="d"/><link rel="stylesheet" href="/assets/site.${footer}.css"/></head><body><main id="main">${main}</main><footer>© ${footer}</footer></body></html>`;

describe('when a page last changed', () => {
  it('counts a new title or text as a change, and a new stylesheet or footer year as none', () => {
    const base = pageContentHash(page('A', 'Hello', '2026'));
    expect(pageContentHash(page('A', 'Hello', '2027'))).toBe(base);
    expect(pageContentHash(page('B', 'Hello', '2026'))).not.toBe(base);
    expect(pageContentHash(page('A', 'Hello!', '2026'))).not.toBe(base);
  });

  it('keeps the recorded time while the content is the same, and takes the build time otherwise or without a record', () => {
    const now = new Date('2026-03-02T08:30:00.123Z');
    expect(lastChanged({ content: 'h', changed: '2026-03-01T00:00:00Z' }, 'h', now)).toBe('2026-03-01T00:00:00Z');
    expect(lastChanged({ content: 'h', changed: '2026-03-01T00:00:00Z' }, 'other', now)).toBe('2026-03-02T08:30:00Z');
    expect(lastChanged(undefined, 'h', now)).toBe(w3cTime(now));
  });
});
