import { pathFor } from '../../cli/site/routes.ts';
import { usePage } from '../page-context.tsx';

/** The brand mark and name, linking to the current language's home page. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  const { lang, site } = usePage();
  return (
    <a
      href={pathFor('home', lang)}
      className={`inline-flex items-center gap-2 rounded-md text-lg font-bold tracking-tight ${inverted ? 'text-white' : 'text-navy-900'}`}
    >
      <svg className="h-8 w-8" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" className="fill-teal-600" />
        <path d="M7 11c3-1 6-1.5 9-1.5s6 .5 9 1.5c0 6.5-3.5 10.5-9 11.5C10.5 21.5 7 17.5 7 11z" fill="#fff" />
        <path d="M11 14.5h3.5M17.5 14.5H21" stroke="#0f766e" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>{site.brand}</span>
    </a>
  );
}
