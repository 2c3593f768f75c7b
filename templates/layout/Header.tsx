import { NavLinkList } from '../ui/NavLinkList.tsx';
import { usePage } from '../page-context.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { Logo } from './Logo.tsx';
import { MobileMenu } from './MobileMenu.tsx';
import { mainNavLinks, newsletterHref } from './nav-links.ts';
import { usePageContactLink } from '../forms/use-contact-link.ts';
import { PRIMARY_BUTTON } from '../ui/button-classes.ts';

/**
 * The site header: logo, main navigation, language menu, the newsletter as a plain link (wide
 * screens), the one filled action, a demo request (the demo page, naming this page as the source),
 * and the small-screen menu, which holds all of them.
 */
export function Header() {
  const { lang, page, t, site, routes } = usePage();
  const links = mainNavLinks(page, lang, t, site, routes);
  const contactLink = usePageContactLink();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/95 backdrop-blur">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label={t('nav.label')} className="hidden lg:block">
          <NavLinkList
            links={links}
            newTab={t('nav.newTab')}
            classes={{
              list: 'flex items-center gap-1',
              link: 'inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-navy-900 aria-[current=page]:text-teal-700',
              icon: 'h-3.5 w-3.5 text-slate-500',
            }}
          />
        </nav>
        <div className="flex items-center gap-2">
          <LanguageMenu />
          <a href={newsletterHref(page, lang)} className="hidden rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-navy-900 xl:inline-flex">
            {t('nav.signUp')}
          </a>
          <a href={contactLink('demo')} className={`${PRIMARY_BUTTON} hidden whitespace-nowrap rounded-lg px-4 py-2 text-sm sm:inline-flex`}>
            {t('nav.demo')}
          </a>
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
