import { pathFor } from '../../cli/site/routes.ts';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { DatabaseList } from './DatabaseList.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { staggerClass } from './stagger.ts';
import { WhyBlock } from './WhyBlock.tsx';

/** The overview's six cards, the specification's keys: what the product is and how it fits. */
const OVERVIEW_CARDS: readonly { key: string; icon: IconName }[] = [
  { key: 'security', icon: 'shield' },
  { key: 'compliance', icon: 'scale' },
  { key: 'deployment', icon: 'cloud' },
  { key: 'admin', icon: 'sliders' },
  { key: 'architecture', icon: 'layers' },
  { key: 'compatibility', icon: 'database' },
];

/** A link that reads as one in a card's text: teal and underlined. */
const CARD_LINK = 'rounded font-semibold text-teal-700 underline decoration-teal-700/40 underline-offset-4 hover:text-teal-900 hover:decoration-teal-900';

/**
 * The overview: six cards, then the "why {brand}" block. The compliance card links the regulation
 * pages of the language (`nav: regulations`); the compatibility card lists the databases available
 * today and links the how-it-works page, where the rest of the roadmap is. The cards move into
 * place 0.1 s apart unless reduced motion is asked for.
 */
export function Overview() {
  const { t, lang, routes } = usePage();
  const regulations = routes.placedLinks('regulations', lang);
  return (
    <section id="overview" aria-labelledby="overview-title" className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="overview-title" title={t('overview.title')} subtitle={t('overview.subtitle')} />
        <div className="mt-10 grid gap-4 sm:mt-14 sm:grid-cols-2 sm:gap-5 lg:grid-cols-3">
          {OVERVIEW_CARDS.map((card, index) => (
            <article key={card.key} data-card={card.key} className={`rounded-2xl bg-white p-5 ring-1 ring-slate-200 sm:p-6 ${staggerClass(index)}`}>
              <div className="flex items-center gap-3">
                <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-navy-900 text-teal-300">
                  <Icon name={card.icon} className="h-5 w-5" />
                </span>
                <h3 className="min-w-0 text-lg font-semibold text-navy-900">{t(`overview.${card.key}.title`)}</h3>
              </div>
              <p className="mt-3 leading-relaxed text-slate-600">{t(`overview.${card.key}.description`)}</p>
              {card.key === 'compliance' && regulations.length > 0 && (
                <ul className="mt-4 flex flex-wrap gap-x-4 gap-y-2">
                  {regulations.map((link) => (
                    <li key={link.page}><a href={link.href} className={CARD_LINK}>{link.label}</a></li>
                  ))}
                </ul>
              )}
              {card.key === 'compatibility' && (
                <>
                  <DatabaseList statuses={['available']} />
                  <p className="mt-4">
                    <a href={pathFor('howItWorks', lang)} className={CARD_LINK}>{t('overview.databases.roadmap')}</a>
                  </p>
                </>
              )}
            </article>
          ))}
        </div>
        <WhyBlock />
      </div>
    </section>
  );
}
