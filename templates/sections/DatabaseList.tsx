import { usePage } from '../page-context.tsx';
import { DATABASES, type DatabaseStatus } from '../visuals/databases.ts';

const STATUS_STYLE: Record<DatabaseStatus, string> = {
  available: 'border-teal-600/40 bg-teal-50 text-navy-900',
  coming: 'border-amber-500/50 bg-amber-50 text-navy-900',
  planned: 'border-dashed border-slate-400 bg-white text-slate-700',
};

/** The supported databases by status (available, coming soon, planned), each status a term and its databases as badges. */
export function DatabaseList() {
  const { t } = usePage();
  return (
    <dl className="mt-4 space-y-3" aria-label={t('overview.databases.title')}>
      {(Object.keys(DATABASES) as DatabaseStatus[]).map((status) => (
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
