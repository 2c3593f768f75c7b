import { usePage } from '../page-context.tsx';
import { Icon } from './Icon.tsx';
import { mainNavLinks, signUpHref } from './nav-links.ts';

/** The small-screen menu: a disclosure button revealing the navigation; hidden from md width up. */
export function MobileMenu() {
  const { lang, page, t, site } = usePage();
  const links = mainNavLinks(page, lang, t, site);
  return (
    <details className="group md:hidden" data-menu="mobile">
      <summary className="flex cursor-pointer list-none items-center rounded-md p-2 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <Icon name="menu" className="h-6 w-6 group-open:hidden" />
        <Icon name="close" className="hidden h-6 w-6 group-open:block" />
        <span className="sr-only">{t('nav.openMenu')}</span>
      </summary>
      <nav
        aria-label={t('nav.label')}
        className="absolute inset-x-0 top-full z-30 border-b border-slate-200 bg-white px-4 pb-5 pt-2 shadow-lg"
      >
        <ul className="space-y-1">
          {links.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                aria-current={link.current ? 'page' : undefined}
                {...(link.external ? { target: '_blank', rel: 'noopener' } : {})}
                className="flex items-center gap-2 rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 aria-[current=page]:text-teal-700"
              >
                {link.label}
                {link.external && (
                  <>
                    <Icon name="external" className="h-4 w-4 text-slate-500" />
                    <span className="sr-only"> {t('nav.newTab')}</span>
                  </>
                )}
              </a>
            </li>
          ))}
        </ul>
        <a
          href={signUpHref(page, lang)}
          className="mt-3 flex justify-center rounded-lg bg-teal-700 px-4 py-3 text-base font-semibold text-white hover:bg-teal-800"
        >
          {t('nav.signUp')}
        </a>
      </nav>
    </details>
  );
}
