import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANG, type Lang } from './languages.ts';
import type { Messages } from './locales.ts';

/** A translate function bound to one language, with English as the fallback. */
export type Translate = TFunction;

/**
 * Creates an i18next instance for `lang` (English fallback, escaping off, since React escapes) and
 * returns its translate function. `defaults` are interpolation values every string may use, such
 * as `{{brand}}` or `{{company}}`. Keys found in no language are reported to `onMissingKey`.
 */
export function createTranslator(
  lang: Lang,
  resources: ReadonlyMap<Lang, Messages>,
  defaults: Record<string, string>,
  onMissingKey: (key: string) => void = () => {},
): Translate {
  const instance = i18next.createInstance();
  const bundle: Record<string, { translation: Messages }> = {};
  for (const [code, messages] of resources) bundle[code] = { translation: messages };
  void instance.init({
    lng: lang,
    fallbackLng: DEFAULT_LANG,
    resources: bundle,
    initAsync: false,
    interpolation: { escapeValue: false, defaultVariables: defaults },
    returnNull: false,
    returnEmptyString: false,
    saveMissing: true,
    missingKeyHandler: (_langs: readonly string[], _ns: string, key: string) => onMissingKey(key),
    showSupportNotice: false,
  } as Parameters<typeof instance.init>[0]);
  return instance.t.bind(instance) as Translate;
}
