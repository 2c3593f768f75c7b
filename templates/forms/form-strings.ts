import type { Translate } from '../../cli/site/i18n.ts';
import { ISSUE_CODES } from '../../ingest/contract/schemas.ts';
import type { ValidationMessages } from './validation-messages.ts';

/**
 * Picks the translations of `keys` under `prefix`, so an island receives only the strings it uses.
 *
 * @example pick(t, 'newsletter', ['submit']) // { submit: 'Subscribe' }
 */
export function pick<K extends string>(t: Translate, prefix: string, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, t(`${prefix}.${key}`)])) as Record<K, string>;
}

/** The translated messages of every validation issue code. */
export function validationMessages(t: Translate): ValidationMessages {
  return pick(t, 'validation', ISSUE_CODES);
}
