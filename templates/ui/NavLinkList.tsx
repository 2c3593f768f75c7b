import { SvgIcon } from './Icon.tsx';
import { external } from './icon-paths.ts';

/** One link of the main navigation; `layout/nav-links.ts` builds them for a page. */
export interface NavLink {
  href: string;
  label: string;
  external?: boolean;
  current?: boolean;
}

/** The class names of the list, of each link and of the new-tab icon, which differ between the header and the small-screen menu. */
export interface NavLinkListClasses {
  list: string;
  link: string;
  icon: string;
}

/**
 * The main navigation's links, each in its list entry; an external link opens in a new tab and
 * says so with an icon and the screen-reader text `newTab`. The header renders it on the server
 * and the MobileMenu island in the browser, which is why it sits with the island components.
 *
 * @example <NavLinkList links={mainNavLinks(page, lang, t, site, routes)} newTab={t('nav.newTab')} classes={{ list: 'space-y-1', link: '…', icon: 'h-4 w-4' }} />
 */
export function NavLinkList({ links, newTab, classes }: { links: readonly NavLink[]; newTab: string; classes: NavLinkListClasses }) {
  return (
    <ul className={classes.list}>
      {links.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            aria-current={link.current ? 'page' : undefined}
            {...(link.external ? { target: '_blank', rel: 'noopener' } : {})}
            className={classes.link}
          >
            {link.label}
            {link.external && (
              <>
                <SvgIcon d={external} className={classes.icon} />
                <span className="sr-only"> {newTab}</span>
              </>
            )}
          </a>
        </li>
      ))}
    </ul>
  );
}
