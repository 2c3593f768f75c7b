import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { ContactForm } from '../sections/ContactForm.tsx';
import { PageHeader } from '../layout/PageHeader.tsx';
import type { ContactIntent } from '../../ingest/contract/schemas.ts';

/** The heading and first line of each reason's contact page. */
const HEADINGS: Readonly<Record<ContactIntent, string>> = { general: 'contact', demo: 'contact.demo', sales: 'contact.sales' };

/**
 * A contact page: the contact form, its reason selected (`/contact/demo` asks for a demo,
 * `/contact/sales` writes to sales, `/contact` a general question), under a heading and a first line
 * that speak to that reason, beside the other ways to reach the team.
 */
export function ContactPage({ intent }: { intent: ContactIntent }) {
  const { t, site } = usePage();
  return (
    <>
      <PageHeader title={t(`${HEADINGS[intent]}.title`)}>
        <p>{t(`${HEADINGS[intent]}.subtitle`)}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[2fr_1fr] lg:px-8">
        <ContactForm intent={intent} />
        <aside aria-labelledby="contact-aside" className="h-fit rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200 sm:p-8">
          <h2 id="contact-aside" className="text-xl font-semibold text-navy-900">{t('contact.asideTitle')}</h2>
          <p className="mt-3 text-slate-600">{t('contact.asideText')}</p>
          <ul className="mt-6 space-y-4 text-slate-800">
            <li className="flex items-center gap-3">
              <Icon name="mail" className="h-5 w-5 text-teal-700" />
              <a href={`mailto:${site.email}`} className="underline-offset-2 hover:underline">{site.email}</a>
            </li>
            <li className="flex items-center gap-3">
              <Icon name="phone" className="h-5 w-5 text-teal-700" />
              <a href={`tel:${site.phone.replace(/\s+/g, '')}`} className="underline-offset-2 hover:underline">{site.phone}</a>
            </li>
            <li className="flex items-center gap-3">
              <Icon name="pin" className="h-5 w-5 text-teal-700" />
              <span>{t('footer.location')}</span>
            </li>
          </ul>
        </aside>
      </div>
    </>
  );
}
