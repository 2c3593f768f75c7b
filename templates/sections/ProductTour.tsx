import { usePage } from '../page-context.tsx';
import { AdminTools } from '../visuals/AdminTools.tsx';
import { ClientSession } from '../visuals/ClientSession.tsx';
import { ProxyDiagram } from '../visuals/ProxyDiagram.tsx';
import { SectionHeading } from './SectionHeading.tsx';

function Lead({ title, text }: { title: string; text: string }) {
  return (
    <div className="max-w-2xl">
      <h3 className="text-2xl font-bold tracking-tight text-navy-900">{title}</h3>
      <p className="mt-3 text-lg leading-relaxed text-slate-600">{text}</p>
    </div>
  );
}

/**
 * How the product runs, shown rather than told: proxy mode between the applications and the
 * database, the interactive client, and the administrator tools.
 */
export function ProductTour() {
  const { t } = usePage();
  return (
    <section id="how-it-works" aria-labelledby="tour-title" className="scroll-mt-20 py-16 sm:py-24">
      <div className="mx-auto max-w-6xl space-y-16 px-4 sm:space-y-20 sm:px-6 lg:px-8">
        <SectionHeading id="tour-title" title={t('overview.tour.title')} subtitle={t('overview.tour.subtitle')} />
        <div className="space-y-8">
          <Lead title={t('overview.proxy.title')} text={t('overview.proxy.text')} />
          <ProxyDiagram />
        </div>
        <div className="grid gap-8 lg:grid-cols-[2fr_3fr] lg:items-center lg:gap-12">
          <Lead title={t('overview.client.title')} text={t('overview.client.text')} />
          <ClientSession />
        </div>
        <div className="space-y-8">
          <Lead title={t('overview.adminTools.title')} text={t('overview.adminTools.text')} />
          <AdminTools />
        </div>
      </div>
    </section>
  );
}
