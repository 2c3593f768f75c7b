import { LANGUAGES, NATIVE_NAMES } from '../../cli/languages.ts';
import { pathFor } from '../../cli/routes.ts';
import { usePage } from '../page-context.tsx';
import { Icon } from './Icon.tsx';

/**
 * The language menu: a disclosure listing every language by its own name, each linking to the
 * same page in that language. Works as a plain `<details>` without JavaScript.
 */
export function LanguageMenu({ align = 'right' }: { align?: 'left' | 'right' }) {
  const { lang, page, t } = usePage();
  const target = page === 'notFound' ? 'home' : page;
  return (
    <details className="group relative" data-menu="language">
      <summary
        className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-navy-900 [&::-webkit-details-marker]:hidden"
        aria-label={`${t('nav.language')}: ${NATIVE_NAMES[lang]}`}
      >
        <Icon name="globe" className="h-5 w-5" />
        <span>{lang.toUpperCase()}</span>
        <Icon name="chevron" className="h-4 w-4 transition-transform group-open:rotate-180" />
      </summary>
      <ul
        className={`absolute z-30 mt-2 w-48 rounded-lg border border-slate-200 bg-white p-1.5 shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
        aria-label={t('nav.chooseLanguage')}
      >
        {LANGUAGES.map((code) => (
          <li key={code}>
            <a
              href={pathFor(target, code)}
              lang={code}
              hrefLang={code}
              aria-current={code === lang ? 'true' : undefined}
              className="flex items-center justify-between rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-navy-900 aria-[current]:font-semibold aria-[current]:text-teal-700"
            >
              {NATIVE_NAMES[code]}
              {code === lang && <Icon name="check" className="h-4 w-4" />}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
