import { useSignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, type FormEvent } from 'react';
import { fieldIssues, HONEYPOT_FIELD, LIMITS, newsletterSchema, type FieldIssues, type Lang, type SubmitOk } from '../../../ingest/contract/schemas.ts';
import { Field, INPUT_CLASS } from '../../forms/Field.tsx';
import { SvgIcon } from '../../ui/Icon.tsx';
import * as icons from '../../ui/icon-paths.ts';
import { RichText } from '../../ui/RichText.tsx';
import { format, postJson } from './api.ts';
import type { ValidationMessages } from '../../forms/validation-messages.ts';
import { errorAttributes, focusFirstInvalid, messageFor } from './field-errors.ts';
import { Toaster } from './Toaster.tsx';
import { showToast } from './toast-store.ts';

export interface NewsletterFormProps {
  lang: Lang;
  /** The service's signup endpoint (`/api/newsletter`): the island posts JSON to it, the plain form (no JavaScript) its fields. */
  endpoint: string;
  privacyHref: string;
  strings: Record<
    | 'name' | 'namePlaceholder' | 'email' | 'emailPlaceholder' | 'privacyConsent' | 'marketingConsent' | 'submit'
    | 'submitting' | 'successTitle' | 'successMessage' | 'checkInboxTitle' | 'checkInboxMessage' | 'privacyNote' | 'duplicateTitle' | 'duplicateMessage'
    | 'errorTitle' | 'errorMessage' | 'rateLimited' | 'close',
    string
  >;
  validation: ValidationMessages;
}

const EMPTY = { name: '', email: '', privacyConsent: false, marketingConsent: false };

/**
 * The newsletter sign-up: validates with the shared contract before sending, disables the button
 * while submitting, replaces itself on success with a panel — "check your inbox" when the service
 * answers that a confirmation mail is on its way (`next: 'confirm_email'`, double opt-in), else
 * the thank-you — and reports a duplicate address or any failure in a toast while keeping what
 * the visitor typed.
 *
 * Without JavaScript it is a plain HTML form that works on its own: it posts its fields (named as
 * the JSON contract, checkboxes `true`, a hidden `lang`) to the service, which answers with a
 * result page of the site, and the browser checks `required`, `type` and `maxlength` first. Once
 * hydrated the island takes over: it turns the browser's checks off (`noValidate`) for its own
 * translated messages and sends JSON instead.
 */
export function NewsletterForm({ lang, endpoint, privacyHref, strings: s, validation }: NewsletterFormProps) {
  useSignals();
  const values = useSignal(EMPTY);
  const issues = useSignal<FieldIssues>({});
  const status = useSignal<'idle' | 'submitting' | 'success' | 'confirmEmail'>('idle');
  const formRef = useRef<HTMLFormElement>(null);
  const honeypot = useRef<HTMLInputElement>(null);
  // False on the server and in the first client render, which must match the server's HTML.
  const hydrated = useSignal(false);
  useEffect(() => {
    hydrated.value = true;
  }, []);

  const set = (patch: Partial<typeof EMPTY>) => {
    values.value = { ...values.value, ...patch };
    const fixed = Object.keys(patch);
    if (fixed.some((k) => k in issues.value)) issues.value = Object.fromEntries(Object.entries(issues.value).filter(([k]) => !fixed.includes(k)));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.value === 'submitting') return;
    const body = { ...values.value, lang, [HONEYPOT_FIELD]: honeypot.current?.value || undefined };
    const found = fieldIssues(newsletterSchema, body);
    issues.value = found;
    if (Object.keys(found).length > 0) return focusFirstInvalid(formRef.current, found);
    status.value = 'submitting';
    const answer = await postJson(endpoint, body);
    if (answer.kind === 'ok') {
      status.value = (answer.body as Partial<SubmitOk> | null)?.next === 'confirm_email' ? 'confirmEmail' : 'success';
      return;
    }
    status.value = 'idle';
    if (answer.kind === 'error' && answer.status === 409) {
      showToast({ variant: 'destructive', title: s.duplicateTitle, description: s.duplicateMessage });
    } else if (answer.kind === 'error' && answer.status === 400 && answer.error?.fields) {
      issues.value = answer.error.fields;
      focusFirstInvalid(formRef.current, answer.error.fields);
    } else {
      const description = answer.kind === 'error' && answer.status === 429 ? s.rateLimited : s.errorMessage;
      showToast({ variant: 'destructive', title: s.errorTitle, description });
    }
  }

  if (status.value === 'success' || status.value === 'confirmEmail') {
    const confirm = status.value === 'confirmEmail';
    return (
      <div role="status" className="rounded-2xl border border-teal-200 bg-teal-50 p-6 sm:p-8" data-newsletter="success" data-next={confirm ? 'confirm_email' : undefined}>
        <SvgIcon d={confirm ? icons.mail : icons.check} className="h-8 w-8 text-teal-700" />
        <h3 className="mt-3 text-xl font-semibold text-navy-900">{confirm ? s.checkInboxTitle : s.successTitle}</h3>
        <p className="mt-2 text-slate-700">{confirm ? format(s.checkInboxMessage, { email: values.value.email.trim() }) : s.successMessage}</p>
        <p className="mt-4 text-sm text-slate-600">{s.privacyNote}</p>
      </div>
    );
  }
  const error = (field: string) => messageFor(field, issues.value, validation);
  const privacyLink = (text: string) => (
    <a href={privacyHref} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">{text}</a>
  );
  const submitting = status.value === 'submitting';
  return (
    <>
    <form ref={formRef} method="post" action={endpoint} onSubmit={submit} noValidate={hydrated.value} data-form="newsletter"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id="newsletter-name" label={s.name} error={error('name')}>
          <input id="newsletter-name" name="name" type="text" autoComplete="name" required maxLength={LIMITS.name}
            placeholder={s.namePlaceholder} className={INPUT_CLASS} value={values.value.name}
            onChange={(e) => set({ name: e.target.value })} {...errorAttributes('newsletter-name', error('name'))} />
        </Field>
        <Field id="newsletter-email" label={s.email} error={error('email')}>
          <input id="newsletter-email" name="email" type="email" autoComplete="email" required maxLength={LIMITS.email}
            placeholder={s.emailPlaceholder} className={INPUT_CLASS} value={values.value.email}
            onChange={(e) => set({ email: e.target.value })} {...errorAttributes('newsletter-email', error('email'))} />
        </Field>
      </div>
      <input type="hidden" name="lang" value={lang} />
      <div className="hidden" aria-hidden="true">
        <input ref={honeypot} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="space-y-1">
        <div>
          <label className="flex items-start gap-3 text-sm text-slate-700">
            <input name="privacyConsent" type="checkbox" value="true" required className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700"
              checked={values.value.privacyConsent} onChange={(e) => set({ privacyConsent: e.target.checked })}
              {...errorAttributes('newsletter-privacyConsent', error('privacyConsent'))} />
            <span><RichText text={s.privacyConsent} tags={{ privacy: privacyLink }} /></span>
          </label>
          <p id="newsletter-privacyConsent-error" className="mt-1 min-h-5 pl-8 text-sm text-rose-700" aria-live="polite">
            {error('privacyConsent')}
          </p>
        </div>
        <label className="flex items-start gap-3 text-sm text-slate-700">
          <input name="marketingConsent" type="checkbox" value="true" className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700"
            checked={values.value.marketingConsent} onChange={(e) => set({ marketingConsent: e.target.checked })} />
          <span>{s.marketingConsent}</span>
        </label>
      </div>
      <button type="submit" disabled={submitting}
        className="mt-6 w-full rounded-lg bg-teal-700 px-5 py-3 font-semibold text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-70">
        {submitting ? s.submitting : s.submit}
      </button>
    </form>
    <Toaster closeLabel={s.close} />
    </>
  );
}
