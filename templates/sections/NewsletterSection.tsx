import { pathFor } from '../../cli/routes.ts';
import { Field, INPUT_CLASS } from '../forms/Field.tsx';
import { usePage } from '../page-context.tsx';
import { RichText } from '../RichText.tsx';

/** The newsletter section (anchor `newsletter`) with the sign-up form. */
export function NewsletterSection() {
  const { lang, t } = usePage();
  const privacyLink = (text: string) => (
    <a href={pathFor('privacy', lang)} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">
      {text}
    </a>
  );
  return (
    <section id="newsletter" aria-labelledby="newsletter-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <h2 id="newsletter-title" className="text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            {t('newsletter.title')}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{t('newsletter.subtitle')}</p>
        </div>
        <form className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-form="newsletter" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="newsletter-name" label={t('newsletter.name')}>
              <input id="newsletter-name" name="name" type="text" autoComplete="name" required maxLength={100}
                placeholder={t('newsletter.namePlaceholder')} className={INPUT_CLASS} aria-describedby="newsletter-name-error" />
            </Field>
            <Field id="newsletter-email" label={t('newsletter.email')}>
              <input id="newsletter-email" name="email" type="email" autoComplete="email" required maxLength={254}
                placeholder={t('newsletter.emailPlaceholder')} className={INPUT_CLASS} aria-describedby="newsletter-email-error" />
            </Field>
          </div>
          <div className="mt-2 space-y-3">
            <label className="flex items-start gap-3 text-sm text-slate-700">
              <input name="privacyConsent" type="checkbox" required className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700" />
              <span>
                <RichText text={t('newsletter.privacyConsent')} tags={{ privacy: privacyLink }} />
              </span>
            </label>
            <label className="flex items-start gap-3 text-sm text-slate-700">
              <input name="marketingConsent" type="checkbox" className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700" />
              <span>{t('newsletter.marketingConsent')}</span>
            </label>
          </div>
          <button type="submit" className="mt-6 w-full rounded-lg bg-teal-700 px-5 py-3 font-semibold text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-70">
            {t('newsletter.submit')}
          </button>
        </form>
      </div>
    </section>
  );
}
