import { useSignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, type FormEvent } from 'react';
import { fieldIssues, HONEYPOT_FIELD, LIMITS, newsletterSchema, type FieldIssues, type Lang, type SubmitOk } from '../../../ingest/contract/schemas.ts';
import { Field, INPUT_CLASS } from '../../forms/Field.tsx';
import { SvgIcon } from '../../ui/Icon.tsx';
import * as icons from '../../ui/icon-paths.ts';
import { RichText } from '../../ui/RichText.tsx';
import { PRIMARY_BUTTON } from '../../ui/button-classes.ts';
import { format, postJson } from './api.ts';
import type { ValidationMessages } from '../../forms/validation-messages.ts';
import { errorAttributes, focusFirstInvalid, messageFor, withoutIssue } from './field-errors.ts';
import { Toaster } from './Toaster.tsx';
import { showToast } from './toast-store.ts';

export interface NewsletterFormProps {
  lang: Lang;
  /** The service's signup endpoint (`/api/newsletter`): the island posts JSON to it, the plain form (no JavaScript) its fields. */
  endpoint: string;
  privacyHref: string;
  /** The page on how the site treats data, linked from the privacy note (`<data>` in its text). */
  dataHandlingHref: string;
  strings: Record<
    | 'name' | 'namePlaceholder' | 'email' | 'emailPlaceholder' | 'privacyConsent' | 'marketingConsent' | 'submit'
    | 'submitting' | 'successTitle' | 'successMessage' | 'checkInboxTitle' | 'checkInboxMessage' | 'privacyNote'
    | 'errorTitle' | 'errorMessage' | 'rateLimited' | 'close',
    string
  >;
  validation: ValidationMessages;
}

/**
 * The newsletter sign-up: validates with the shared contract before sending, disables the button
 * while submitting, replaces itself on success with a panel — "check your inbox" when the service
 * answers that a confirmation mail is on its way (`next: 'confirm_email'`, double opt-in), else
 * the thank-you — and reports any failure in a toast while keeping what the visitor typed. The
 * service answers every valid signup alike, whether or not the address is subscribed already (its
 * owner is told by mail), so there is no "already subscribed" message here.
 *
 * Without JavaScript it is a plain HTML form that works on its own: it posts its fields (named as
 * the JSON contract, checkboxes `true`, a hidden `lang`) to the service, which answers with a
 * result page of the site, and the browser checks `required`, `type` and `maxlength` first. Once
 * hydrated the island takes over: it turns the browser's checks off (`noValidate`) for its own
 * translated messages and sends JSON instead.
 *
 * Its fields are uncontrolled: what the visitor types lives in the inputs alone, from before the
 * island hydrates to the submit, which reads them with `FormData`. React never writes a field's
 * value, so no keystroke can be overwritten (issue 22: "keys.…" was once stored as "eys.…").
 */
export function NewsletterForm({ lang, endpoint, privacyHref, dataHandlingHref, strings: s, validation }: NewsletterFormProps) {
  useSignals();
  const issues = useSignal<FieldIssues>({});
  const status = useSignal<'idle' | 'submitting' | 'success' | 'confirmEmail'>('idle');
  // The address the confirmation mail goes to, for the "check your inbox" panel.
  const sentTo = useRef('');
  // False on the server and in the first client render, which must match the server's HTML.
  const hydrated = useSignal(false);
  useEffect(() => {
    hydrated.value = true;
  }, []);

  // A field the visitor edits loses its message until the next check.
  const edited = (event: FormEvent<HTMLFormElement>) => {
    issues.value = withoutIssue(issues.value, (event.target as HTMLInputElement).name);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.value === 'submitting') return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '');
    const body = {
      name: text('name'), email: text('email'),
      privacyConsent: data.has('privacyConsent'), marketingConsent: data.has('marketingConsent'),
      lang, [HONEYPOT_FIELD]: text(HONEYPOT_FIELD) || undefined,
    };
    const found = fieldIssues(newsletterSchema, body);
    issues.value = found;
    if (Object.keys(found).length > 0) return focusFirstInvalid(form, found);
    sentTo.current = body.email.trim();
    status.value = 'submitting';
    const answer = await postJson(endpoint, body);
    if (answer.kind === 'ok') {
      status.value = (answer.body as Partial<SubmitOk> | null)?.next === 'confirm_email' ? 'confirmEmail' : 'success';
      return;
    }
    status.value = 'idle';
    if (answer.kind === 'error' && answer.status === 400 && answer.error?.fields) {
      issues.value = answer.error.fields;
      focusFirstInvalid(form, answer.error.fields);
    } else {
      const description = answer.kind === 'error' && answer.status === 429 ? s.rateLimited : s.errorMessage;
      showToast({ variant: 'destructive', title: s.errorTitle, description });
    }
  }

  const dataLink = (text: string) => (
    <a href={dataHandlingHref} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">{text}</a>
  );
  if (status.value === 'success' || status.value === 'confirmEmail') {
    const confirm = status.value === 'confirmEmail';
    return (
      <div role="status" className="rounded-2xl border border-teal-200 bg-teal-50 p-6 sm:p-8" data-newsletter="success" data-next={confirm ? 'confirm_email' : undefined}>
        <SvgIcon d={confirm ? icons.mail : icons.check} className="h-8 w-8 text-teal-700" />
        <h3 className="mt-3 text-xl font-semibold text-navy-900">{confirm ? s.checkInboxTitle : s.successTitle}</h3>
        <p className="mt-2 text-slate-700">{confirm ? format(s.checkInboxMessage, { email: sentTo.current }) : s.successMessage}</p>
        <p className="mt-4 text-sm text-slate-600"><RichText text={s.privacyNote} tags={{ data: dataLink }} /></p>
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
    <form method="post" action={endpoint} onSubmit={submit} onChange={edited} noValidate={hydrated.value} data-form="newsletter"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id="newsletter-name" label={s.name} error={error('name')}>
          <input id="newsletter-name" name="name" type="text" autoComplete="name" required maxLength={LIMITS.name}
            placeholder={s.namePlaceholder} className={INPUT_CLASS} defaultValue=""
            {...errorAttributes('newsletter-name', error('name'))} />
        </Field>
        <Field id="newsletter-email" label={s.email} error={error('email')}>
          <input id="newsletter-email" name="email" type="email" autoComplete="email" required maxLength={LIMITS.email}
            placeholder={s.emailPlaceholder} className={INPUT_CLASS} defaultValue=""
            {...errorAttributes('newsletter-email', error('email'))} />
        </Field>
      </div>
      <input type="hidden" name="lang" value={lang} />
      <div className="hidden" aria-hidden="true">
        <input name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="space-y-1">
        <div>
          <label className="flex items-start gap-3 text-sm text-slate-700">
            <input name="privacyConsent" type="checkbox" value="true" required className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700"
              {...errorAttributes('newsletter-privacyConsent', error('privacyConsent'))} />
            <span><RichText text={s.privacyConsent} tags={{ privacy: privacyLink }} /></span>
          </label>
          <p id="newsletter-privacyConsent-error" className="mt-1 min-h-5 pl-8 text-sm text-rose-700" aria-live="polite">
            {error('privacyConsent')}
          </p>
        </div>
        <label className="flex items-start gap-3 text-sm text-slate-700">
          <input name="marketingConsent" type="checkbox" value="true" className="mt-0.5 h-5 w-5 shrink-0 accent-teal-700" />
          <span>{s.marketingConsent}</span>
        </label>
      </div>
      <p className="mt-4 text-sm text-slate-600"><RichText text={s.privacyNote} tags={{ data: dataLink }} /></p>
      <button type="submit" disabled={submitting}
        className={`${PRIMARY_BUTTON} mt-6 w-full rounded-lg px-5 py-3 disabled:cursor-not-allowed disabled:opacity-70`}>
        {submitting ? s.submitting : s.submit}
      </button>
    </form>
    <Toaster closeLabel={s.close} />
    </>
  );
}
