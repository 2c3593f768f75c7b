import type { ReactNode } from 'react';
import { usePage } from '../page-context.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { DATABASES } from './databases.ts';
import { FlowArrow } from './FlowArrow.tsx';

function Node({ icon, title, detail, highlight = false, children }: {
  icon: IconName;
  title: string;
  detail: string;
  highlight?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className={`rounded-xl p-4 ${highlight ? 'bg-navy-900 text-white shadow-lg ring-2 ring-teal-400' : 'bg-white ring-1 ring-slate-200'}`}>
      <div className="flex items-center gap-3">
        <span className={`inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg ${highlight ? 'bg-teal-400 text-navy-950' : 'bg-slate-100 text-navy-900'}`}>
          <Icon name={icon} className="h-5 w-5" />
        </span>
        <p className={`font-semibold ${highlight ? 'text-white' : 'text-navy-900'}`}>{title}</p>
      </div>
      <p className={`mt-2 text-sm ${highlight ? 'text-slate-300' : 'text-slate-600'}`}>{detail}</p>
      {children}
    </div>
  );
}

/** The two directions between two boxes: the query going in, the result coming back. */
function Link({ forward, back, backClass }: { forward: string; back: string; backClass: string }) {
  return (
    <div className="flex min-w-0 justify-center gap-4 py-1 text-xs font-medium @sm:gap-8 @3xl:flex-col @3xl:gap-3 @3xl:px-1">
      <p className="flex min-w-0 items-center gap-2 text-slate-600 @3xl:flex-col @3xl:gap-1">
        <span className="order-2 min-w-0 [overflow-wrap:anywhere] @3xl:order-1">{forward}</span>
        <span className="order-1 @3xl:order-2"><FlowArrow /></span>
      </p>
      <p className={`flex min-w-0 items-center gap-2 @3xl:flex-col @3xl:gap-1 ${backClass}`}>
        <FlowArrow back />
        <span className="min-w-0 [overflow-wrap:anywhere]">{back}</span>
      </p>
    </div>
  );
}

/**
 * Proxy mode: applications send their SQL to the proxy, which forwards it to the database and
 * masks the results on their way back. Boxes and labels are text; the arrows are decorative. The
 * boxes stand in a row when the figure itself is wide enough (a container query), so the diagram
 * also fits a half-width column.
 */
export function ProxyDiagram() {
  const { t } = usePage();
  return (
    <figure aria-labelledby="proxy-caption" className="@container rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 sm:p-6">
      <div className="grid gap-3 @3xl:grid-cols-[1fr_auto_1.15fr_auto_1fr] @3xl:items-center">
        <Node icon="users" title={t('howItWorks.proxy.apps')} detail={t('howItWorks.proxy.appsDetail')} />
        <Link forward={t('howItWorks.proxy.query')} back={t('howItWorks.proxy.maskedResults')} backClass="text-teal-700" />
        <Node icon="mask" title={t('howItWorks.proxy.proxy')} detail={t('howItWorks.proxy.proxyDetail')} highlight />
        <Link forward={t('howItWorks.proxy.query')} back={t('howItWorks.proxy.originalResults')} backClass="text-slate-600" />
        <Node icon="database" title={t('howItWorks.proxy.database')} detail={t('howItWorks.proxy.databaseDetail')}>
          <ul className="mt-3 flex flex-wrap gap-1.5">
            {DATABASES.available.map((name) => (
              <li key={name} className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{name}</li>
            ))}
          </ul>
        </Node>
      </div>
      <figcaption id="proxy-caption" className="mt-5 text-sm text-slate-600">{t('howItWorks.proxy.caption')}</figcaption>
    </figure>
  );
}
