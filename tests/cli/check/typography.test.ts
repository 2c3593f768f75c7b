/**
 * `sitegen check`'s typography rules, per language: what each finds in prose, and what it leaves
 * alone (code, tags, URLs, placeholders); and the shipped content passing them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTypography, typographyFindings } from '../../../cli/check/typography.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

const advice = (lang: Parameters<typeof typographyFindings>[0], text: string) => typographyFindings(lang, text).map((f) => f.advice);

describe('typography', () => {
  it('passes the shipped strings and pages of every language', () => {
    expect(checkTypography(join(PROJECT_ROOT, 'content'), PROJECT_ROOT)).toEqual([]);
  });

  it('wants one ellipsis character in every language', () => {
    expect(advice('en', 'Submitting...')).toEqual([expect.stringMatching(/ellipsis/)]);
    expect(advice('nl', 'Bezig met verzenden…')).toEqual([]);
  });

  it('wants the narrow no-break space of French punctuation, not an ordinary space', () => {
    expect(advice('fr', 'Confirmer : oui ; non ? « Bien »')).toEqual([
      expect.stringMatching(/before ; : \? ! ».*\(and 3 more in this text\)/),
      expect.stringMatching(/after «/),
    ]);
    expect(advice('fr', 'Confirmer\u202f: oui\u202f; non\u00a0? «\u202fBien\u202f»')).toEqual([]);
    expect(advice('en', 'Note : English does not care')).toEqual([]);
  });

  it('wants German, Italian and Dutch quotation marks, not the straight one, in prose only', () => {
    expect(advice('de', 'zum Beispiel "angemeldet"')).toEqual([expect.stringMatching(/„…“ in German.*\(and 1 more/)]);
    expect(advice('de', 'zum Beispiel „angemeldet“')).toEqual([]);
    expect(advice('it', 'il <a href="/it/privacy">testo</a> e `a="b"` e [link](https://x.test/?q="1")')).toEqual([]);
    expect(advice('nl', 'bijvoorbeeld "ingeschreven"')).toHaveLength(1);
  });

  it('wants the Spanish comma after "por ejemplo"', () => {
    expect(advice('es', 'válida, por ejemplo nombre@empresa.com')).toEqual([expect.stringMatching(/comma after "por ejemplo"/)]);
    expect(advice('es', 'válida, por ejemplo, nombre@empresa.com')).toEqual([]);
  });
});
