import { contentPageId } from '../../cli/site/routes.ts';
import { usePage } from '../page-context.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { staggerClass } from './stagger.ts';

/** The six capability cards, keyed as the specification names them; a card about a regulation names its page (`content/pages/<lang>/<page>.md`). */
const FEATURES: readonly { key: string; icon: IconName; page?: string }[] = [
  { key: 'gdpr', icon: 'globe', page: 'gdpr' },
  { key: 'hipaa', icon: 'heart', page: 'hipaa' },
  { key: 'obfuscation', icon: 'mask' },
  { key: 'scalable', icon: 'trend' },
  { key: 'sync', icon: 'sync' },
  { key: 'audit', icon: 'clipboard' },
];

/**
 * The feature grid: the heading beside two columns of cards on wide screens, each card with an
 * accent bar and its number, moving into place 0.1 s apart unless reduced motion is asked for. The
 * title of a regulation's card links that regulation's page, where the language has it.
 */
export function FeatureGrid() {
  const { t, lang, routes } = usePage();
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-[1fr_2fr] lg:px-8">
        <div className="lg:sticky lg:top-24 lg:self-start lg:pt-2">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight text-balance text-navy-900 sm:text-4xl">{t('features.title')}</h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{t('features.subtitle')}</p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          {FEATURES.map((feature, index) => {
            const title = t(`features.${feature.key}.title`);
            const href = feature.page === undefined ? undefined : routes.pathFor(contentPageId(feature.page), lang);
            return (
              <article key={feature.key} data-card={feature.key} className={`relative overflow-hidden rounded-2xl bg-white p-6 pl-7 shadow-sm ring-1 ring-slate-200 ${staggerClass(index)}`}>
                <span aria-hidden="true" className="absolute inset-y-0 left-0 w-1 bg-gradient-to-b from-teal-500 to-navy-900" />
                <div className="flex items-start gap-3">
                  <Icon name={feature.icon} className="mt-0.5 h-6 w-6 shrink-0 text-teal-700" />
                  <h3 className="min-w-0 flex-1 text-lg font-semibold text-navy-900">
                    {href === undefined ? title : <a href={href} className="rounded underline decoration-teal-700/40 underline-offset-4 hover:text-teal-800 hover:decoration-teal-800">{title}</a>}
                  </h3>
                  <span aria-hidden="true" className="font-mono text-sm text-slate-500">{String(index + 1).padStart(2, '0')}</span>
                </div>
                <p className="mt-2 leading-relaxed text-slate-600">{t(`features.${feature.key}.description`)}</p>
              </article>
            );
          })}
        </div>
      </div>
    </section>
  );
}
