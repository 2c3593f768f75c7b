import { pathFor } from '../../cli/site/routes.ts';
import { pick, validationMessages } from '../forms/form-strings.ts';
import { NewsletterForm } from '../islands/components/NewsletterForm.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';

const STRINGS = [
  'name', 'namePlaceholder', 'email', 'emailPlaceholder', 'privacyConsent', 'marketingConsent', 'submit', 'submitting',
  'successTitle', 'successMessage', 'checkInboxTitle', 'privacyNote', 'errorTitle', 'errorMessage',
] as const;

/**
 * The newsletter section (anchor `newsletter`) with the sign-up form island, which is a plain
 * HTML form posting to the service until its script runs.
 */
export function NewsletterSection() {
  const { lang, t, site } = usePage();
  return (
    <section id="newsletter" aria-labelledby="newsletter-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <h2 id="newsletter-title" className="text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            {t('newsletter.title')}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{t('newsletter.subtitle')}</p>
        </div>
        <Island
          name="NewsletterForm"
          component={NewsletterForm}
          props={{
            lang,
            endpoint: `${site.ingestUrl}/newsletter`,
            privacyHref: pathFor('privacy', lang),
            dataHandlingHref: pathFor('dataHandling', lang),
            strings: {
              ...pick(t, 'newsletter', STRINGS),
              // {{email}} is the visitor's address, filled in by the island (not site.json's email).
              checkInboxMessage: t('newsletter.checkInboxMessage', { email: '{{email}}' }),
              rateLimited: t('toast.rateLimited'),
              close: t('toast.close'),
            },
            validation: validationMessages(t),
          }}
        />
      </div>
    </section>
  );
}
