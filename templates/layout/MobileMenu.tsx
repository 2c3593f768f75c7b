import { MobileMenu as MobileMenuIsland } from '../islands/components/MobileMenu.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';
import { mainNavLinks, newsletterHref } from './nav-links.ts';
import { usePageContactLink } from '../forms/use-contact-link.ts';

/** The header's small-screen menu island: the main navigation, the newsletter link and the demo button. */
export function MobileMenu() {
  const { lang, page, t, site, routes } = usePage();
  const contactLink = usePageContactLink();
  return (
    <Island
      name="MobileMenu"
      component={MobileMenuIsland}
      props={{
        openLabel: t('nav.openMenu'),
        closeLabel: t('nav.closeMenu'),
        navLabel: t('nav.label'),
        newTab: t('nav.newTab'),
        links: [...mainNavLinks(page, lang, t, site, routes), { href: newsletterHref(page, lang), label: t('nav.signUp') }],
        primary: { href: contactLink('demo'), label: t('nav.demo') },
      }}
    />
  );
}
