import { MobileMenu as MobileMenuIsland } from '../islands/components/MobileMenu.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';
import { mainNavLinks, newsletterHref } from './nav-links.ts';

/** The header's small-screen menu island with the main navigation and the newsletter button. */
export function MobileMenu() {
  const { lang, page, t, site, routes } = usePage();
  return (
    <Island
      name="MobileMenu"
      component={MobileMenuIsland}
      props={{
        openLabel: t('nav.openMenu'),
        closeLabel: t('nav.closeMenu'),
        navLabel: t('nav.label'),
        newTab: t('nav.newTab'),
        links: mainNavLinks(page, lang, t, site, routes),
        signUp: { href: newsletterHref(page, lang), label: t('nav.signUp') },
      }}
    />
  );
}
