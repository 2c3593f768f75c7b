import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANG, type Lang } from './languages.ts';
import type { Messages } from './locales.ts';

/** A translate function bound to one language, with English as the fallback. */
export type Translate = TFunction;

/**
 * Creates an i18next instance for `lang` (English fallback, escaping off, since React escapes) and
 * returns its translate function. `defaults` are interpolation values every string may use, such
 * as `{{brand}}` or `{{company}}`. Keys found in no language are reported to `onMissingKey` (once:
 * a text asked for again is answered from a cache).
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
  const translate = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown;
  // Every page asks for the same texts (header, footer, forms): each is looked up and
  // interpolated once. Only calls whose options are plain values are cached.
  const answers = new Map<string, unknown>();
  const cached = (...args: unknown[]) => {
    const key = cacheKey(args);
    if (key === undefined) return translate(...args);
    if (!answers.has(key)) answers.set(key, translate(...args));
    return answers.get(key);
  };
  return cached as unknown as Translate;
}

/**
 * The cache key of a translate call, or undefined for one that is not cached (options holding
 * anything but strings, numbers and booleans).
 *
 * @example cacheKey(['footer.copyright', { year: 2026 }]) // 'footer.copyright {"year":2026}'
 */
function cacheKey([key, options, ...rest]: unknown[]): string | undefined {
  if (typeof key !== 'string' || rest.length > 0) return undefined;
  if (options === undefined) return key;
  const plain = typeof options === 'object' && options !== null && Object.values(options).every((v) => ['string', 'number', 'boolean'].includes(typeof v));
  return plain ? `${key} ${JSON.stringify(options)}` : undefined;
}

/**
 * Wraps a translator so that it notes every key asked for: the strings a page reads, which
 * the build cache keys the page by.
 *
 * @example const { t, keys } = recordingTranslator(translate); t('nav.about'); [...keys] // ['nav.about']
 */
export function recordingTranslator(translate: Translate): { t: Translate; keys: Set<string> } {
  const keys = new Set<string>();
  const base = translate as unknown as (...args: unknown[]) => unknown;
  const t = (...args: unknown[]) => {
    const [key] = args;
    if (typeof key === 'string') keys.add(key);
    else if (Array.isArray(key)) for (const k of key) if (typeof k === 'string') keys.add(k);
    return base(...args);
  };
  return { t: t as unknown as Translate, keys };
}
