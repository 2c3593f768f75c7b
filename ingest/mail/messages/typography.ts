/**
 * Each language's punctuation in the texts the service writes into its mails, in the HTML and
 * the plain-text part alike. French puts a narrow no-break space (U+202F) before `:`, `;`, `!`,
 * `?` and `»` and after `«`, so a line never starts with the mark; the other six languages put
 * none. Only the service's own texts are typeset: what a visitor typed is shown as typed.
 */
import type { Lang } from '../../contract/languages.ts';

const NARROW_NBSP = '\u202F';

/**
 * `text` with `lang`'s spacing around punctuation. A mark with no space before it counts only
 * when a space, a closing quote or the end follows (a time such as 05:56 and a URL keep theirs).
 *
 * @example typeset('fr', 'Confirmer mon inscription: ici') // → 'Confirmer mon inscription\u202F: ici'
 * @example typeset('en', 'Confirm my subscription: here') // → unchanged
 */
export function typeset(lang: Lang, text: string): string {
  if (lang !== 'fr') return text;
  return text
    .replace(/([ \u00A0\u202F]*)([:;!?»])/g, (whole, spaces: string, mark: string, offset: number) => {
      const next = text[offset + whole.length] ?? ' ';
      const bare = spaces === '';
      if (bare && (offset === 0 || /[^\s"'’”»)]/.test(next))) return whole;
      return `${NARROW_NBSP}${mark}`;
    })
    .replace(/«[ \u00A0\u202F]*/g, `«${NARROW_NBSP}`);
}

/**
 * A label and its value on one line, with the language's colon: `labelled('fr', 'Société', 'Acme')`
 * → `'Société\u202F: Acme'`, `labelled('en', 'Company', 'Acme')` → `'Company: Acme'`.
 */
export function labelled(lang: Lang, label: string, value: string): string {
  return `${typeset(lang, `${label}:`)} ${value}`;
}
