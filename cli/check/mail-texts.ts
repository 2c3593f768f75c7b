/**
 * The `mail` section of each resource file, checked against the ingest service's own schema
 * (`ingest/contract/mail-texts.ts`), so a text the service would refuse at start-up fails
 * `sitegen check` first: every key present, none too long, and no placeholder the service does not
 * fill in that mail (`{{brand}}`, `{{days}}`, the sales mail's `{{reason}}` and `{{name}}`).
 */
import { MAIL_PLACEHOLDERS, mailTextsSchema } from '../../ingest/contract/mail-texts.ts';
import type { Problem } from '../site/errors.ts';
import { placeholdersOf } from '../site/locales.ts';
import type { LocaleFile } from '../site/translations/translation-files.ts';

/** The problems of one language's mail texts. */
export function mailTextProblems(locale: LocaleFile): Problem[] {
  const problems: Problem[] = [];
  const at = (key: string) => locale.lines.get(key) ?? locale.lines.get('mail') ?? 1;
  const section: Record<string, Record<string, string>> = {};
  for (const [key, value] of Object.entries(locale.flat)) {
    const [first, group, name, ...rest] = key.split('.');
    if (first !== 'mail') continue;
    if (group === undefined || name === undefined || rest.length > 0) {
      problems.push({ code: 'mail_text_invalid', file: locale.file, line: at(key), message: `key "${key}" is not a mail text (mail.<mail>.<text>)` });
      continue;
    }
    (section[group] ??= {})[name] = value;
    const filled: readonly string[] = MAIL_PLACEHOLDERS[group as keyof typeof MAIL_PLACEHOLDERS] ?? [];
    const unknown = placeholdersOf(value).filter((p) => !filled.includes(p));
    if (unknown.length > 0) {
      problems.push({ code: 'mail_text_invalid', file: locale.file, line: at(key), message: `key "${key}" uses {{${unknown.join('}}, {{')}}}, which the mail service does not fill` });
    }
  }
  const parsed = mailTextsSchema.safeParse(section);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = ['mail', ...issue.path.map(String)].join('.');
      problems.push({ code: 'mail_text_invalid', file: locale.file, line: at(key), message: `key "${key}": ${issue.message}` });
    }
  }
  return problems;
}
