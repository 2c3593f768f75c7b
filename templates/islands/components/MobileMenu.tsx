import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { SvgIcon } from '../../ui/Icon.tsx';
import * as icons from '../../ui/icon-paths.ts';
import { type NavLink, NavLinkList } from '../../ui/NavLinkList.tsx';
import { PRIMARY_BUTTON } from '../../ui/button-classes.ts';
import { useDisclosure } from './use-disclosure.ts';

export interface MobileMenuProps {
  openLabel: string;
  closeLabel: string;
  navLabel: string;
  newTab: string;
  links: NavLink[];
  /** The menu's one filled action (a demo request), after the links. */
  primary: { href: string; label: string };
}

const BUTTON_CLASS = 'flex cursor-pointer list-none items-center rounded-md p-2 text-slate-700 hover:bg-slate-100';

function MenuPanel({ id, navLabel, newTab, links, primary }: Omit<MobileMenuProps, 'openLabel' | 'closeLabel'> & { id?: string }) {
  return (
    <nav id={id} aria-label={navLabel} className="absolute inset-x-0 top-full z-30 border-b border-slate-200 bg-white px-4 pb-5 pt-2 shadow-lg">
      <NavLinkList
        links={links}
        newTab={newTab}
        classes={{
          list: 'space-y-1',
          link: 'flex items-center gap-2 rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 aria-[current=page]:text-teal-700',
          icon: 'h-4 w-4 text-slate-500',
        }}
      />
      <a href={primary.href} className={`${PRIMARY_BUTTON} mt-3 flex justify-center rounded-lg px-4 py-3 text-base`}>
        {primary.label}
      </a>
    </nav>
  );
}

/**
 * The small-screen menu: a plain `<details>` disclosure until hydrated; then a button with
 * `aria-expanded` that opens the navigation panel, closed by Escape (focus returns to the button),
 * a second press or a click elsewhere.
 */
export function MobileMenu(props: MobileMenuProps) {
  useSignals();
  const { open, enhanced, rootRef, buttonRef, toggle } = useDisclosure();
  const panelId = useId();
  if (!enhanced.value) {
    return (
      <details ref={rootRef} className="group lg:hidden" data-menu="mobile">
        <summary className={BUTTON_CLASS}>
          <SvgIcon d={icons.menu} className="h-6 w-6 group-open:hidden" />
          <SvgIcon d={icons.close} className="hidden h-6 w-6 group-open:block" />
          <span className="sr-only">{props.openLabel}</span>
        </summary>
        <MenuPanel {...props} />
      </details>
    );
  }
  return (
    <div ref={rootRef} className="lg:hidden" data-menu="mobile">
      <button ref={buttonRef} type="button" className={BUTTON_CLASS} aria-expanded={open.value} aria-controls={panelId} onClick={toggle}>
        <SvgIcon d={open.value ? icons.close : icons.menu} className="h-6 w-6" />
        <span className="sr-only">{open.value ? props.closeLabel : props.openLabel}</span>
      </button>
      <div hidden={!open.value}>
        <MenuPanel {...props} id={panelId} />
      </div>
    </div>
  );
}
