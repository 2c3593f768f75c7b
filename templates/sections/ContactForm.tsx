import { pathFor } from '../../cli/routes.ts';
import { countryOptions } from '../forms/country-options.ts';
import { Field, INPUT_CLASS, Optional } from '../forms/Field.tsx';
import { usePage } from '../page-context.tsx';
import { RichText } from '../RichText.tsx';

/** The contact form: name, email, phone, company, country, message and the arithmetic captcha. */
export function ContactForm() {
  const { lang, t, site } = usePage();
  const optional = <Optional text={t('contact.optional')} />;
  const input = (id: string, name: string, type: string, autoComplete: string, maxLength: number, required: boolean) => (
    <input id={id} name={name} type={type} autoComplete={autoComplete} maxLength={maxLength} required={required}
      className={INPUT_CLASS} aria-describedby={`${id}-error`} />
  );
  return (
    <form className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-form="contact" noValidate>
      <div className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
        <Field id="contact-firstName" label={t('contact.firstName')}>
          {input('contact-firstName', 'firstName', 'text', 'given-name', 100, true)}
        </Field>
        <Field id="contact-lastName" label={t('contact.lastName')}>
          {input('contact-lastName', 'lastName', 'text', 'family-name', 100, true)}
        </Field>
        <Field id="contact-email" label={t('contact.email')}>
          {input('contact-email', 'email', 'email', 'email', 254, true)}
        </Field>
        <Field id="contact-phone" label={<>{t('contact.phone')}{optional}</>}>
          {input('contact-phone', 'phone', 'tel', 'tel', 40, false)}
        </Field>
        <Field id="contact-companyName" label={<>{t('contact.companyName')}{optional}</>}>
          {input('contact-companyName', 'companyName', 'text', 'organization', 200, false)}
        </Field>
        <Field id="contact-country" label={t('contact.country')}>
          <select id="contact-country" name="country" required autoComplete="country" defaultValue="" className={INPUT_CLASS}
            aria-describedby="contact-country-error">
            <option value="" disabled>{t('contact.selectCountry')}</option>
            {countryOptions(lang).map((c) => (
              <option key={c.value} value={c.value}>{c.label}</option>
            ))}
          </select>
        </Field>
      </div>
      <Field id="contact-message" label={t('contact.message')}>
        <textarea id="contact-message" name="message" required maxLength={5000} rows={6}
          placeholder={t('contact.messagePlaceholder')} className={`${INPUT_CLASS} min-h-[150px]`} aria-describedby="contact-message-error" />
      </Field>
      <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <p className="text-sm text-slate-700">{t('contact.captchaNoScript', { email: site.email })}</p>
      </div>
      <p className="mt-4 text-sm text-slate-600">
        <RichText text={t('contact.privacyNote')} tags={{
          privacy: (text) => <a href={pathFor('privacy', lang)} className="font-medium text-teal-700 underline underline-offset-2">{text}</a>,
        }} />
      </p>
      <button type="submit" className="mt-6 w-full rounded-lg bg-teal-700 px-5 py-3 font-semibold text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-70 sm:w-auto">
        {t('contact.submit')}
      </button>
    </form>
  );
}
