/**
 * The mailbox key the per-recipient mail cap counts by (issue 22 item 4): `bomb+1@…` to
 * `bomb+10@…` and Gmail's dotted spellings each counted as a new address, so the cap could be
 * walked around. One mailbox, one key; two people, two keys.
 */
import { describe, expect, it } from 'vitest';
import { mailboxKey } from '../../../ingest/contract/mailbox-key.ts';

describe('mailboxKey', () => {
  it('gives every sub-address tag of one mailbox the same key', () => {
    const keys = Array.from({ length: 10 }, (_, i) => mailboxKey(`bomb+${i + 1}@example.com`));
    expect(new Set(keys)).toEqual(new Set(['bomb@example.com']));
    expect(mailboxKey('bomb+a+b@example.com')).toBe('bomb@example.com');
  });

  it('ignores case and surrounding blanks', () => {
    expect(mailboxKey('  Ana.Perez@Example.COM ')).toBe('ana.perez@example.com');
  });

  it("ignores dots where the provider does (Gmail, googlemail.com being the same mailboxes)", () => {
    expect(mailboxKey('a.n.a@gmail.com')).toBe('ana@gmail.com');
    expect(mailboxKey('Ana.Perez+news@GoogleMail.com')).toBe('anaperez@gmail.com');
    expect(mailboxKey('ana@googlemail.com')).toBe(mailboxKey('ANA@gmail.com'));
  });

  it('keeps dots elsewhere, where two dotted spellings are two people', () => {
    expect(mailboxKey('j.de.vries@example.nl')).toBe('j.de.vries@example.nl');
    expect(mailboxKey('jde.vries@example.nl')).not.toBe(mailboxKey('j.de.vries@example.nl'));
  });

  it('keeps a local part that starts with + whole, and a domain as it is', () => {
    expect(mailboxKey('+tag@example.com')).toBe('+tag@example.com');
    expect(mailboxKey('ana@mail.example.com')).toBe('ana@mail.example.com');
  });
});
