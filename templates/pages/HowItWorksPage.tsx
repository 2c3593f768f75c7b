import type { ReactNode } from 'react';
import { PageHeader } from '../layout/PageHeader.tsx';
import { usePage } from '../page-context.tsx';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { DatabaseList } from '../sections/DatabaseList.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { AdminTools } from '../visuals/AdminTools.tsx';
import { ClientSession } from '../visuals/ClientSession.tsx';
import { ProxyDiagram } from '../visuals/ProxyDiagram.tsx';

/** What keeps masking working as data and teams grow: the feature grid's cards of the same names. */
const OPERATIONS: readonly { key: string; icon: IconName }[] = [
  { key: 'scalable', icon: 'trend' },
  { key: 'sync', icon: 'sync' },
  { key: 'audit', icon: 'clipboard' },
];

/** A section of the page: its heading and lead paragraph, then what it shows. */
function Section({ id, title, lead, children }: { id: string; title: string; lead: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-balance text-navy-900">{title}</h2>
      <p className="mt-3 max-w-3xl text-lg leading-relaxed text-slate-600">{lead}</p>
      <div className="mt-8">{children}</div>
    </section>
  );
}

/** One of the two modes: its name and what it is for, above its figure. */
function Mode({ id, title, text, children }: { id: string; title: string; text: string; children: ReactNode }) {
  return (
    <article aria-labelledby={id} className="flex min-w-0 flex-col gap-5">
      <div>
        <h3 id={id} className="text-2xl font-bold tracking-tight text-navy-900">{title}</h3>
        <p className="mt-2 leading-relaxed text-slate-600">{text}</p>
      </div>
      {children}
    </article>
  );
}

/**
 * How the product works: proxy mode and the interactive client side by side, the administrator
 * tools, the supported databases by status (the roadmap lives here, not on the home page),
 * scalability, synchronisation and audit trails; then the call to action. The figures' names and
 * values are examples, and the page says so.
 */
export function HowItWorksPage() {
  const { t } = usePage();
  return (
    <>
      <PageHeader title={t('howItWorks.title')}>
        <p>{t('howItWorks.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-16 px-4 py-14 sm:space-y-20 sm:px-6 sm:py-20 lg:px-8">
        <Section id="modes" title={t('howItWorks.modes.title')} lead={t('howItWorks.modes.intro')}>
          <div className="grid gap-12 lg:grid-cols-2 lg:gap-8">
            <Mode id="proxy-mode" title={t('howItWorks.proxy.title')} text={t('howItWorks.proxy.text')}>
              <ProxyDiagram />
            </Mode>
            <Mode id="interactive-client" title={t('howItWorks.client.title')} text={t('howItWorks.client.text')}>
              <ClientSession />
            </Mode>
          </div>
        </Section>
        <Section id="admin-tools" title={t('howItWorks.adminTools.title')} lead={t('howItWorks.adminTools.text')}>
          <AdminTools />
          <p className="mt-4 text-sm text-slate-600">{t('howItWorks.example')}</p>
        </Section>
        <Section id="databases" title={t('overview.databases.title')} lead={t('howItWorks.databases.intro')}>
          <div className="max-w-3xl rounded-2xl bg-white p-5 ring-1 ring-slate-200 sm:p-6">
            <DatabaseList />
          </div>
        </Section>
        <Section id="operations" title={t('howItWorks.operations.title')} lead={t('howItWorks.operations.intro')}>
          <ul className="grid gap-5 md:grid-cols-3">
            {OPERATIONS.map(({ key, icon }) => (
              <li key={key} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
                <h3 className="flex items-start gap-3 text-lg font-semibold text-navy-900">
                  <Icon name={icon} className="mt-0.5 h-6 w-6 shrink-0 text-teal-700" />
                  <span className="min-w-0">{t(`features.${key}.title`)}</span>
                </h3>
                <p className="mt-2 leading-relaxed text-slate-600">{t(`features.${key}.description`)}</p>
              </li>
            ))}
          </ul>
        </Section>
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
