import type { RenderedContentPage } from '../../cli/site/markdown/render-markdown.ts';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { PageHeader } from '../layout/PageHeader.tsx';

/** A page a content maintainer added as Markdown: its title and description, the text, and the call to action. */
export function ContentPage({ document }: { document: RenderedContentPage }) {
  return (
    <>
      <PageHeader title={document.title}>
        <p>{document.description}</p>
      </PageHeader>
      {/* The same grid as the heading's band, so the text's column starts where the heading does. */}
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 lg:px-8">
        <article className="legal-prose max-w-3xl" dangerouslySetInnerHTML={{ __html: document.html }} />
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
