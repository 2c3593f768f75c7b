import { TOKEN_FORM_PAGES } from '../../ingest/contract/service-pages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { TokenForm } from '../islands/components/TokenForm.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';
import { PageHeader } from './PageHeader.tsx';

/** A page a mail's link opens with `?token=…`: the newsletter's confirm and unsubscribe pages. */
export type TokenPage = keyof typeof TOKEN_FORM_PAGES;

/** The texts of each page, under `servicePages.<section>`: title, text, button, ignore. */
const SECTION: Readonly<Record<TokenPage, string>> = { newsletterConfirm: 'confirm', newsletterUnsubscribe: 'unsubscribe' };

/**
 * The newsletter's confirm or unsubscribe page: what the button does, the button, and that nothing
 * happens without it. Opening the page changes nothing (mail scanners open links); only the
 * form's POST does.
 */
export function NewsletterTokenPage({ page }: { page: TokenPage }) {
  const { lang, t, site } = usePage();
  const text = (key: string) => t(`servicePages.${SECTION[page]}.${key}`);
  return (
    <>
      <PageHeader title={text('title')}>
        <p>{text('text')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-3xl">
          <Island
            name="TokenForm"
            component={TokenForm}
            props={{
              lang,
              endpoint: `${site.ingestUrl}${TOKEN_FORM_PAGES[page]}`,
              submit: text('button'),
              note: text('ignore'),
              noToken: t('servicePages.linkInvalid.text'),
              noTokenLink: { href: pathFor('linkInvalid', lang), label: t('servicePages.linkInvalid.whatToDo') },
            }}
            fromMarkup={['lang', 'submit', 'note', 'noToken', 'noTokenLink']}
          />
        </div>
      </div>
    </>
  );
}
