import type { Translate } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { homeAnchor, pathFor, type RoutePageId, type SiteRoutes } from '../../cli/site/routes.ts';
import type { SiteConfig } from '../../cli/site/site-config.ts';
import type { NavLink } from '../ui/NavLinkList.tsx';
import { intentOfPage } from '../forms/contact-link.ts';

/**
 * The header's navigation links for a page: the solutions page (which lists the industry pages),
 * about, the Markdown pages placed in the header (`nav: header` in their front matter), blog
 * (external), contact.
 */
export function mainNavLinks(page: RoutePageId | 'notFound', lang: Lang, t: Translate, site: SiteConfig, routes: SiteRoutes): NavLink[] {
  return [
    { href: pathFor('solutions', lang), label: t('nav.solutions'), current: page === 'solutions' },
    { href: pathFor('about', lang), label: t('nav.about'), current: page === 'about' },
    ...routes.placedLinks('header', lang).map((link) => ({ href: link.href, label: link.label, current: page === link.page })),
    { href: site.blogUrl, label: t('nav.blog'), external: true },
    { href: pathFor('contact', lang), label: t('nav.contact'), current: intentOfPage(page) !== undefined },
  ];
}

/** The header's newsletter link: the newsletter section of the home page. */
export function newsletterHref(page: RoutePageId | 'notFound', lang: Lang): string {
  return homeAnchor(page === 'notFound' ? 'about' : page, lang, 'newsletter');
}
