import { LANGUAGES, NATIVE_NAMES } from '../../cli/site/languages.ts';
import { LanguageMenu as LanguageMenuIsland } from '../islands/components/LanguageMenu.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';

/** The header's language menu island, linking to the current page in every language (to a language's home page where the page has no text in it). */
export function LanguageMenu() {
  const { lang, page, t, routes } = usePage();
  const target = page === 'notFound' ? 'home' : page;
  return (
    <Island
      name="LanguageMenu"
      component={LanguageMenuIsland}
      props={{
        current: lang,
        // The accessible name begins with the visible "EN" (WCAG 2.5.3 Label in Name): a voice-control user says what they see.
        label: t('nav.languageButton', { code: lang.toUpperCase(), name: NATIVE_NAMES[lang] }),
        listLabel: t('nav.chooseLanguage'),
        links: LANGUAGES.map((code) => ({ lang: code, href: routes.languageLinkFor(target, code), name: NATIVE_NAMES[code] })),
      }}
    />
  );
}
