import type { RenderedContentPage } from '../../cli/site/markdown/content-pages.ts';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { PageHeader } from './PageHeader.tsx';

/** A page a content maintainer added as Markdown: its title and description, the text, and the call to action. */
export function ContentPage({ document }: { document: RenderedContentPage }) {
  return (
    <>
      <PageHeader title={document.title}>
        <p>{document.description}</p>
      </PageHeader>
      <article className="legal-prose mx-auto max-w-3xl px-4 py-14 sm:px-6 lg:px-8" dangerouslySetInnerHTML={{ __html: document.html }} />
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
