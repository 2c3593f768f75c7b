import { usePage } from '../page-context.tsx';
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { DATABASES, REGULATIONS, type DatabaseStatus } from '../visuals/databases.ts';

const STATUS_STYLE: Record<DatabaseStatus, { dot: string; badge: string }> = {
  available: { dot: 'bg-teal-600', badge: 'border-teal-600/40 bg-teal-50 text-navy-900' },
  coming: { dot: 'bg-amber-500', badge: 'border-amber-500/50 bg-amber-50 text-navy-900' },
  planned: { dot: 'bg-slate-400', badge: 'border-dashed border-slate-400 bg-white text-slate-700' },
};

/**
 * The band under the hero: the supported databases grouped by status (available, coming soon,
 * planned) and the regulations the product helps with, as text badges in a grid of two columns.
 */
export function SupportStrip() {
  const { t } = usePage();
  return (
    <section aria-label={t('overview.support')} className="border-b border-slate-200 bg-white py-10 sm:py-12">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-[3fr_2fr] lg:gap-16 lg:px-8">
        <div>
          <StripHeading icon="database">{t('overview.databases.title')}</StripHeading>
          <dl className="mt-4 grid gap-4 sm:grid-cols-[auto_1fr] sm:items-center sm:gap-x-6 sm:gap-y-3">
            {(Object.keys(DATABASES) as DatabaseStatus[]).map((status) => (
              <div key={status} className="contents">
                <dt className="flex items-center gap-2 text-sm font-medium text-slate-700">
                  <span aria-hidden="true" className={`h-2 w-2 rounded-full ${STATUS_STYLE[status].dot}`} />
                  {t(`overview.databases.${status}`)}
                </dt>
                <dd className="-mt-2 sm:mt-0">
                  <ul className="flex flex-wrap gap-2">
                    {DATABASES[status].map((name) => (
                      <li key={name} className={`rounded-md border px-2.5 py-1 text-sm font-semibold ${STATUS_STYLE[status].badge}`}>{name}</li>
                    ))}
                  </ul>
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <div>
          <StripHeading icon="scale">{t('overview.regulations.title')}</StripHeading>
          {/* A grid, not a wrapping row: the badges take equal cells, so their rows are even at every width. */}
          <ul className="mt-4 grid grid-cols-2 gap-2">
            {REGULATIONS.map((id) => (
              <li key={id} className="flex flex-col rounded-xl bg-slate-50 px-3.5 py-2 ring-1 ring-slate-200">
                <span className="text-sm font-bold text-navy-900">{t(`overview.regulations.${id}.name`)}</span>
                <span className="text-xs text-slate-600">{t(`overview.regulations.${id}.scope`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

/** The small uppercase heading of each half of the strip, with its icon. */
function StripHeading({ icon, children }: { icon: IconName; children: ReactNode }) {
  return (
    <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-slate-600">
      <Icon name={icon} className="h-4 w-4 text-teal-700" />
      {children}
    </h2>
  );
}
