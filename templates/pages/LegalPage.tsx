import type { RenderedMarkdown } from '../../cli/site/markdown/markdown.ts';
import { usePage } from '../page-context.tsx';
import { PageHeader } from '../layout/PageHeader.tsx';

/** A long legal text (legal notice, privacy, cookies) from Markdown, with its table of contents. */
export function LegalPage({ document }: { document: RenderedMarkdown }) {
  const { lang, t, site } = usePage();
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(site.legal.lastUpdated));
  return (
    <>
      <PageHeader title={document.title}>
        <p className="text-base text-slate-400">{t('legal.lastUpdated', { date })}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[16rem_1fr] lg:px-8 print:block print:p-0">
        {/* On paper the table of contents would only repeat the headings, without page numbers. */}
        <nav aria-labelledby="toc-title" className="h-fit lg:sticky lg:top-24 print:hidden">
          <h2 id="toc-title" className="text-sm font-semibold uppercase tracking-wider text-slate-500">{t('legal.onThisPage')}</h2>
          <ol className="mt-3 space-y-2 border-l border-slate-200 text-sm">
            {document.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="-ml-px block border-l border-transparent pl-4 text-slate-600 hover:border-teal-600 hover:text-navy-900">
                  {section.text}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="legal-prose max-w-3xl" dangerouslySetInnerHTML={{ __html: document.html }} />
      </div>
    </>
  );
}
