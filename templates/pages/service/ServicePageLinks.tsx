import { PRIMARY_BUTTON } from '../../ui/button-classes.ts';
import { Icon } from '../../ui/Icon.tsx';

/** One way on from a service page. */
export interface ServicePageLink {
  href: string;
  label: string;
}

const LINK_CLASS = {
  primary: `${PRIMARY_BUTTON} inline-flex items-center gap-2 rounded-lg px-5 py-3`,
  secondary: 'inline-flex items-center rounded-lg px-5 py-3 font-semibold text-navy-900 ring-1 ring-slate-300 hover:bg-slate-50',
};

/**
 * The links at the end of a service page, as buttons: the first is the main way on (filled, with
 * an arrow) unless `primary` is false, when they weigh the same (the visitor's way back depends on
 * which form they sent, which the page cannot know).
 */
export function ServicePageLinks({ links, primary = true }: { links: readonly ServicePageLink[]; primary?: boolean }) {
  return (
    <div className="mt-8 flex flex-wrap gap-3">
      {links.map((link, i) => (
        <a key={link.href} href={link.href} className={primary && i === 0 ? LINK_CLASS.primary : LINK_CLASS.secondary}>
          {link.label}
          {primary && i === 0 && <Icon name="arrow" className="h-5 w-5" />}
        </a>
      ))}
    </div>
  );
}
