import { usePage } from '../page-context.tsx';
import { DATABASES, type DatabaseStatus } from '../visuals/databases.ts';

const STATUS_STYLE: Record<DatabaseStatus, string> = {
  available: 'border-teal-600/40 bg-teal-50 text-navy-900',
  coming: 'border-amber-500/50 bg-amber-50 text-navy-900',
  planned: 'border-dashed border-slate-400 bg-white text-slate-700',
};

/**
 * The supported databases by status, each status a term and its databases as badges: by default
 * all of them (available, coming soon, planned), or only `statuses` (the home page shows what is
 * available today; the roadmap is on the how-it-works page).
 */
export function DatabaseList({ statuses = Object.keys(DATABASES) as DatabaseStatus[] }: { statuses?: readonly DatabaseStatus[] }) {
  const { t } = usePage();
  return (
    <dl className="mt-4 space-y-3" aria-label={t('overview.databases.title')}>
      {statuses.map((status) => (
        <div key={status}>
          <dt className="text-xs font-semibold uppercase tracking-wider text-slate-600">{t(`overview.databases.${status}`)}</dt>
          <dd className="mt-1.5">
            <ul className="flex flex-wrap gap-1.5">
              {DATABASES[status].map((name) => (
                <li key={name} className={`rounded-md border px-2 py-0.5 text-sm font-semibold ${STATUS_STYLE[status]}`}>{name}</li>
              ))}
            </ul>
          </dd>
        </div>
      ))}
    </dl>
  );
}
