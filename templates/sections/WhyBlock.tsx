import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';

/** The overview's "why {brand}" block: the reason in a few lines, and three points beside it. */
export function WhyBlock() {
  const { t } = usePage();
  return (
    <div data-block="why" className="mt-10 grid gap-6 rounded-3xl bg-navy-900 p-6 text-white sm:mt-14 sm:p-10 lg:grid-cols-2 lg:items-center lg:gap-10">
      <div>
        <h3 className="text-2xl font-bold sm:text-3xl">{t('overview.why.title')}</h3>
        <p className="mt-3 leading-relaxed text-slate-300">{t('overview.why.description')}</p>
      </div>
      <ul className="space-y-3">
        {(['point1', 'point2', 'point3'] as const).map((point) => (
          <li key={point} className="flex items-start gap-3">
            <span className="mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-teal-400 text-navy-950">
              <Icon name="check" className="h-4 w-4" />
            </span>
            <span className="text-slate-100">{t(`overview.why.${point}`)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
