/**
 * `sitegen check` refuses mail texts the ingest service would refuse at start-up.
 */
import { describe, expect, it } from 'vitest';
import { mailTextProblems } from '../../../cli/check/mail-texts.ts';
import { flatten, loadAllMessages } from '../../../cli/site/locales.ts';

const CONTENT = new URL('../../../content', import.meta.url).pathname;
const english = flatten(loadAllMessages(CONTENT, ['en']).get('en')!);
const locale = (flat: Record<string, string>) => ({ lang: 'de' as const, file: 'content/locales/de.json', flat, lines: new Map<string, number>() });

describe('mail texts in sitegen check', () => {
  it('accepts the content as it is', () => {
    expect(mailTextProblems(locale(english))).toEqual([]);
  });

  it('names a missing text, a placeholder the service does not fill, and a text too long', () => {
    const { ['mail.confirm.button']: _button, ...rest } = english;
    const problems = mailTextProblems(
      locale({ ...rest, 'mail.confirm.heading': 'Hallo {{name}}', 'mail.confirm.intro': 'x'.repeat(601) }),
    ).map((p) => `${p.code}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'mail_text_invalid: key "mail.confirm.heading" uses {{name}}, which the mail service does not fill',
        expect.stringMatching(/^mail_text_invalid: key "mail\.confirm\.button": /),
        expect.stringMatching(/^mail_text_invalid: key "mail\.confirm\.intro": /),
      ]),
    );
  });
});
