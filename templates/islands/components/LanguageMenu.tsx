import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { SvgIcon } from '../../ui/Icon.tsx';
import * as icons from '../../ui/icon-paths.ts';
import { useDisclosure } from './use-disclosure.ts';

export interface LanguageMenuProps {
  current: string;
  /** "EN – Language: English", the button's accessible name, beginning with its visible text (`current`, upper case). */
  label: string;
  /** "Choose a language", the list's accessible name. */
  listLabel: string;
  links: { lang: string; href: string; name: string }[];
}

const SUMMARY_CLASS =
  'flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-navy-900';

function LanguageList({ id, listLabel, links, current }: Omit<LanguageMenuProps, 'label'> & { id?: string }) {
  return (
    <ul id={id} className="absolute right-0 z-30 mt-2 w-48 rounded-lg border border-slate-200 bg-white p-1.5 shadow-lg" aria-label={listLabel}>
      {links.map((link) => (
        <li key={link.lang}>
          <a
            href={link.href}
            lang={link.lang}
            hrefLang={link.lang}
            aria-current={link.lang === current ? 'true' : undefined}
            className="flex items-center justify-between rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-navy-900 aria-[current]:font-semibold aria-[current]:text-teal-700"
          >
            {link.name}
            {link.lang === current && <SvgIcon d={icons.check} className="h-4 w-4" />}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The language menu: every language by its own name, each link leading to the same page in that
 * language. A plain `<details>` disclosure until hydrated; then a button with `aria-expanded`
 * that also opens on hover (menu timings) and closes with Escape or a click elsewhere.
 */
export function LanguageMenu(props: LanguageMenuProps) {
  useSignals();
  const { open, enhanced, rootRef, buttonRef, hoverHandlers, toggle } = useDisclosure({ hover: true });
  const listId = useId();
  const face = (
    <>
      <SvgIcon d={icons.globe} className="h-5 w-5" />
      <span>{props.current.toUpperCase()}</span>
      <SvgIcon d={icons.chevron} className={`h-4 w-4 transition-transform ${open.value ? 'rotate-180' : ''} group-open:rotate-180`} />
    </>
  );
  if (!enhanced.value) {
    return (
      <details ref={rootRef} className="group relative" data-menu="language">
        <summary className={SUMMARY_CLASS} aria-label={props.label}>{face}</summary>
        <LanguageList {...props} />
      </details>
    );
  }
  return (
    <div ref={rootRef} className="relative" data-menu="language" {...hoverHandlers}>
      <button ref={buttonRef} type="button" className={SUMMARY_CLASS} aria-label={props.label}
        aria-expanded={open.value} aria-controls={listId} onClick={toggle}>
        {face}
      </button>
      <div hidden={!open.value}>
        <LanguageList {...props} id={listId} />
      </div>
    </div>
  );
}
