import { TOKEN_FORM_PAGES } from '../../../ingest/contract/service-pages.ts';
import { pathFor, type ServicePageId } from '../../../cli/site/routes.ts';
import { TokenForm } from '../../islands/components/TokenForm.tsx';
import { Island } from '../../islands/Island.tsx';
import { usePage } from '../../page-context.tsx';
import { PageHeader } from '../../layout/PageHeader.tsx';

/** A page a mail's link opens with `?token=…`: the newsletter's confirm and unsubscribe pages, the contact message's confirm page. */
export type TokenPage = keyof typeof TOKEN_FORM_PAGES;

/**
 * Where each page's texts live (title, text, button, ignore), and the "link not valid" page it
 * points to when its address has no token (with that page's `text` and `whatToDo`).
 */
const PAGES: Readonly<Record<TokenPage, { texts: string; invalid: { page: ServicePageId; texts: string } }>> = {
  newsletterConfirm: { texts: 'servicePages.confirm', invalid: { page: 'linkInvalid', texts: 'servicePages.linkInvalid' } },
  newsletterUnsubscribe: { texts: 'servicePages.unsubscribe', invalid: { page: 'linkInvalid', texts: 'servicePages.linkInvalid' } },
  contactConfirm: { texts: 'servicePages.contact.confirm', invalid: { page: 'contactLinkInvalid', texts: 'servicePages.contact.linkInvalid' } },
};

/**
 * A page with one button a mail's link leads to — confirm a subscription, unsubscribe, confirm and
 * send a contact message: what the button does, the button, and that nothing happens without it.
 * Opening the page changes nothing (mail scanners open links); only the form's POST does.
 */
export function TokenFormPage({ page }: { page: TokenPage }) {
  const { lang, t, site } = usePage();
  const { texts, invalid } = PAGES[page];
  const text = (key: string) => t(`${texts}.${key}`);
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
              noToken: t(`${invalid.texts}.text`),
              noTokenLink: { href: pathFor(invalid.page, lang), label: t(`${invalid.texts}.whatToDo`) },
            }}
            fromMarkup={['lang', 'submit', 'note', 'noToken', 'noTokenLink']}
          />
        </div>
      </div>
    </>
  );
}
