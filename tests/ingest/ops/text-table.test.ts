/**
 * The operator commands' tables: columns line up, and what a remote server said cannot drive the
 * operator's terminal (an SMTP answer with an escape sequence prints as text).
 */
import { describe, expect, it } from 'vitest';
import { textTable } from '../../../ingest/ops/text-table.ts';

describe('textTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(textTable(['id', 'kind', 'why'], [['7', 'sales', 'mailbox full'], ['12', 'newsletter_confirm', '']])).toBe(
      'id  kind                why\n7   sales               mailbox full\n12  newsletter_confirm  ',
    );
  });

  it('regression: a relay answer with terminal escape sequences or line breaks prints them escaped, on one line', () => {
    const answer = '550 \u001b]0;owned\u0007\u001b[2J gone\r\nnext\u009b';
    const table = textTable(['id', 'why'], [['1', answer]]);
    expect(table).toBe('id  why\n1   550 \\x1b]0;owned\\x07\\x1b[2J gone\\x0d\\nnext\\x9b');
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
