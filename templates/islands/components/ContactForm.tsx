import { useSignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, type FormEvent } from 'react';
import { CONTACT_INTENTS, type ContactIntent, fieldIssues, HONEYPOT_FIELD, LIMITS, type FieldIssues, type Lang, plainContactSchema } from '../../../ingest/contract/schemas.ts';
import { Field, INPUT_CLASS, Optional } from '../../forms/Field.tsx';
import { PRIMARY_BUTTON } from '../../ui/button-classes.ts';
import { RichText } from '../../ui/RichText.tsx';
import { format, postJson } from './api.ts';
import { challengeReady, fetchChallengeRetrying, type Challenge } from './captcha.ts';
import { sourcePageOf } from './contact-origin.ts';
import type { ValidationMessages } from '../../forms/validation-messages.ts';
import { errorAttributes, focusFirstInvalid, messageFor, withoutIssue } from './field-errors.ts';
import { Toaster } from './Toaster.tsx';
import { showToast } from './toast-store.ts';

export interface ContactFormProps {
  lang: Lang;
  /** The reason selected when the page loads: the reason of its contact page (`/contact/demo` → demo). */
  intent: ContactIntent;
  /** The service's contact endpoint (`/api/contact`): the island posts JSON to it, the plain form (no JavaScript) its fields. */
  endpoint: string;
  captchaEndpoint: string;
  privacyHref: string;
  /** The page on how the site treats data, linked from the privacy note (`<data>` in its text). */
  dataHandlingHref: string;
  countries: { value: string; label: string }[];
  strings: Record<
    | 'firstName' | 'lastName' | 'email' | 'phone' | 'companyName' | 'optional' | 'country' | 'selectCountry' | 'message'
    | 'messagePlaceholder' | 'captchaLabel' | 'captchaHint' | 'captchaLoading' | 'captchaUnavailable' | 'captchaRetry' | 'captchaNoScript' | 'submit' | 'sending'
    | 'errorTitle' | 'errorMessage' | 'captchaErrorTitle' | 'captchaErrorMessage'
    | 'captchaTooFastMessage' | 'privacyNote' | 'rateLimited' | 'close'
    | 'reason' | 'reasonDemo' | 'reasonSales' | 'reasonGeneral' | 'sentTitle' | 'sentText' | 'successTitle' | 'successMessage',
    string
  >;
  validation: ValidationMessages;
}

// The box that holds the security question (or, without JavaScript, the note that there is none).
const CAPTCHA_BOX_CLASS = 'rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200';

type TextField = 'firstName' | 'lastName' | 'email' | 'phone' | 'companyName';

/**
 * The contact form: validates with the shared contract, checks the arithmetic captcha before
 * sending anything, and on success shows the success toast (which takes the one toast slot, so an
 * earlier error toast goes), clears every field and asks a new question; on failure it keeps the
 * data and explains in a toast. A question is good for one answer: after a wrong one, here or
 * refused by the service, the visitor gets a new question.
 *
 * The reason for writing is the one of its page (`/contact/demo`, `/contact/sales`, `/contact`),
 * selected in the HTML itself, and the page the visitor came from is sent along (`sourcePageOf`).
 * A message sent also puts a note above the emptied form saying what happens next, scrolled below
 * the sticky header with the focus on its heading.
 *
 * Without JavaScript it is a plain HTML form that works on its own: it posts its fields (named as
 * the JSON contract, a hidden `lang`, the honeypot) to the service after the browser's own checks
 * (`required`, `type="email"`, `maxlength`). It has no captcha then (the question exists only in
 * the island), so the service stores the message unverified and mails the sender a confirmation
 * link, as the note in `<noscript>` says. With JavaScript on, the question's box takes no room until
 * the island hydrates (the `<noscript>` holds the whole box, not an empty one). Once hydrated the
 * island takes over: it turns the browser's checks off (`noValidate`) for its own translated
 * messages, asks the question at once and sends JSON instead.
 *
 * Its fields are uncontrolled: what the visitor types lives in the controls alone, from before the
 * island hydrates to the submit, which reads them with `FormData`; a message sent clears them with
 * the form's `reset()`. React never writes a field's value, so no keystroke can be overwritten.
 */
export function ContactForm({ lang, intent, endpoint, captchaEndpoint, privacyHref, dataHandlingHref, countries, strings: s, validation }: ContactFormProps) {
  useSignals();
  const issues = useSignal<FieldIssues>({});
  const sending = useSignal(false);
  const challenge = useSignal<Challenge | null>(null);
  const sourcePage = useRef<string | null>(null);
  const sent = useSignal(false);
  const sentRef = useRef<HTMLHeadingElement>(null);
  const sentBoxRef = useRef<HTMLDivElement>(null);

  const hydrated = useSignal(false);
  // No question after every try: the box says so and offers to try again. Only the latest fetch
  // counts (a second one can start while the first is still retrying).
  const unavailable = useSignal(false);
  const fetches = useRef(0);
  const newChallenge = async () => {
    const fetch = ++fetches.current;
    unavailable.value = false;
    const fetched = await fetchChallengeRetrying(captchaEndpoint);
    if (fetch !== fetches.current) return;
    challenge.value = fetched;
    unavailable.value = fetched === null;
  };
  useEffect(() => {
    hydrated.value = true;
    void newChallenge();
    sourcePage.current = sourcePageOf(location.search, document.referrer, location.href);
  }, []);
  // The confirmation takes the place of the form, and the focus that was in it. The visitor was at
  // the form's button, below: the box is brought in whole, under the sticky header (its
  // `scroll-mt-*`), rather than wherever focusing the heading alone would leave it.
  useEffect(() => {
    if (!sent.value) return;
    sentRef.current?.focus({ preventScroll: true });
    sentBoxRef.current?.scrollIntoView({ block: 'nearest' });
  }, [sent.value]);
  // The question just answered is spent: it goes away at once, so it cannot be answered again.
  // After a refused answer the new question's field is marked invalid with the reason and takes
  // the focus, so a screen reader announces the new question and why the last answer failed.
  const refused = useSignal<string | null>(null);
  // (The answer's field goes with the question, so the new question's field starts empty.)
  const nextQuestion = async (reason: string) => {
    refused.value = reason;
    challenge.value = null;
    await newChallenge();
    requestAnimationFrame(() => document.getElementById('contact-answer')?.focus());
  };

  // A field the visitor edits loses its message until the next check.
  const edited = (event: FormEvent<HTMLFormElement>) => {
    const field = (event.target as HTMLInputElement).name;
    if (field === 'answer') refused.value = null;
    issues.value = withoutIssue(issues.value, field);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.value) return;
    sent.value = false;
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '');
    const optional = (name: string) => (text(name).trim() === '' ? null : text(name));
    const current = challenge.value;
    const answer = text('answer').trim() === '' ? NaN : Number(text('answer'));
    const fields = {
      intent: text('intent'), sourcePage: sourcePage.current,
      firstName: text('firstName'), lastName: text('lastName'), email: text('email'),
      phone: optional('phone'), companyName: optional('companyName'),
      country: text('country'), message: text('message'), lang,
      [HONEYPOT_FIELD]: text(HONEYPOT_FIELD) || undefined,
    };
    // The fields are checked against the contract; the answer against the question's sum, below.
    const found = fieldIssues(plainContactSchema, fields);
    if (Number.isNaN(answer)) found.answer = 'captcha';
    issues.value = found;
    if (Object.keys(found).length > 0) return focusFirstInvalid(form, found);
    if (!current) {
      showToast({ variant: 'destructive', title: s.errorTitle, description: s.errorMessage });
      return void newChallenge();
    }
    if (answer !== current.a + current.b) {
      showToast({ variant: 'destructive', title: s.captchaErrorTitle, description: s.captchaErrorMessage });
      return void nextQuestion(s.captchaErrorMessage);
    }
    sending.value = true;
    await challengeReady(current);
    const result = await postJson(endpoint, { ...fields, captcha: { token: current.token, answer } });
    sending.value = false;
    if (result.kind === 'ok') {
      form.reset();
      issues.value = {};
      refused.value = null;
      sent.value = true;
      showToast({ variant: 'default', title: s.successTitle, description: s.successMessage });
      challenge.value = null;
      return void newChallenge();
    }
    // The service spent the question (a wrong or too quick answer, or one already used).
    if (result.kind === 'error' && result.status === 422) {
      const description = result.error?.code === 'captcha_too_fast' ? s.captchaTooFastMessage : s.captchaErrorMessage;
      showToast({ variant: 'destructive', title: s.captchaErrorTitle, description });
      return void nextQuestion(description);
    }
    if (result.kind === 'error' && result.status === 400 && result.error?.fields) {
      issues.value = result.error.fields;
      focusFirstInvalid(form, result.error.fields);
    }
    const description = result.kind === 'error' && result.status === 429 ? s.rateLimited : s.errorMessage;
    showToast({ variant: 'destructive', title: s.errorTitle, description });
  }

  const error = (field: string) => messageFor(field, issues.value, validation);
  const text = (field: TextField, type: string, autoComplete: string, max: number, required: boolean) => (
    <input id={`contact-${field}`} name={field} type={type} autoComplete={autoComplete} maxLength={max} required={required}
      className={INPUT_CLASS} defaultValue="" {...errorAttributes(`contact-${field}`, error(field))} />
  );
  const optional = <Optional text={s.optional} />;
  const c = challenge.value;
  return (
    <>
    {sent.value && (
      <div ref={sentBoxRef} data-contact="sent" className="mb-6 scroll-mt-24 rounded-2xl border border-teal-200 bg-teal-50 p-6 shadow-sm sm:p-8">
        <h2 ref={sentRef} tabIndex={-1} className="text-2xl font-bold text-navy-900">{s.sentTitle}</h2>
        <p className="mt-3 text-lg leading-relaxed text-slate-700">{s.sentText}</p>
      </div>
    )}
    <form method="post" action={endpoint} onSubmit={submit} onChange={edited} noValidate={hydrated.value} data-form="contact"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <Field id="contact-intent" label={s.reason} error={error('intent')}>
        <select id="contact-intent" name="intent" className={INPUT_CLASS} defaultValue={intent}
          {...errorAttributes('contact-intent', error('intent'))}>
          {CONTACT_INTENTS.map((intent) => (
            <option key={intent} value={intent}>{{ demo: s.reasonDemo, sales: s.reasonSales, general: s.reasonGeneral }[intent]}</option>
          ))}
        </select>
      </Field>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id="contact-firstName" label={s.firstName} error={error('firstName')}>{text('firstName', 'text', 'given-name', LIMITS.name, true)}</Field>
        <Field id="contact-lastName" label={s.lastName} error={error('lastName')}>{text('lastName', 'text', 'family-name', LIMITS.name, true)}</Field>
        <Field id="contact-email" label={s.email} error={error('email')}>{text('email', 'email', 'email', LIMITS.email, true)}</Field>
        <Field id="contact-phone" label={<>{s.phone}{optional}</>} error={error('phone')}>{text('phone', 'tel', 'tel', LIMITS.phone, false)}</Field>
        <Field id="contact-companyName" label={<>{s.companyName}{optional}</>} error={error('companyName')}>
          {text('companyName', 'text', 'organization', LIMITS.companyName, false)}
        </Field>
        <Field id="contact-country" label={s.country} error={error('country')}>
          <select id="contact-country" name="country" required autoComplete="country" className={INPUT_CLASS}
            defaultValue="" {...errorAttributes('contact-country', error('country'))}>
            <option value="" disabled>{s.selectCountry}</option>
            {countries.map((country) => <option key={country.value} value={country.value}>{country.label}</option>)}
          </select>
        </Field>
      </div>
      <Field id="contact-message" label={s.message} error={error('message')}>
        <textarea id="contact-message" name="message" required maxLength={LIMITS.message} rows={6} placeholder={s.messagePlaceholder}
          className={`${INPUT_CLASS} min-h-[150px]`} defaultValue=""
          {...errorAttributes('contact-message', error('message'))} />
      </Field>
      <input type="hidden" name="lang" value={lang} />
      <div className="hidden" aria-hidden="true">
        <input name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {hydrated.value ? (
        <div className={CAPTCHA_BOX_CLASS} data-captcha={c ? `${c.a}+${c.b}` : 'pending'}>
          {c ? (
            <Field id="contact-answer" label={format(s.captchaLabel, { a: c.a, b: c.b })} hint={s.captchaHint} error={refused.value ?? error('answer')}>
              <input id="contact-answer" name="answer" type="text" inputMode="numeric" autoComplete="off" maxLength={2} required
                className={`${INPUT_CLASS} max-w-28`} defaultValue=""
                {...errorAttributes('contact-answer', refused.value ?? error('answer'))} aria-describedby="contact-answer-hint contact-answer-error" />
            </Field>
          ) : unavailable.value ? (
            <div role="alert" className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <p className="text-sm text-slate-700">{s.captchaUnavailable}</p>
              <button type="button" onClick={() => void newChallenge()}
                className="rounded-lg px-3 py-1.5 text-sm font-semibold text-teal-800 ring-1 ring-teal-700 hover:bg-teal-50">
                {s.captchaRetry}
              </button>
            </div>
          ) : (
            // One line, about as high as the question's label: the box grows little when the question comes.
            <p className="min-h-5 text-sm text-slate-700">{s.captchaLoading}</p>
          )}
        </div>
      ) : (
        // Before the island runs, the whole box is in <noscript>: visitors without JavaScript see the
        // note, the others nothing at all (not an empty box). With scripts on, the browser keeps a
        // <noscript>'s content as raw text, character references undecoded (`all&#x27;indirizzo`),
        // which hydration would report as a mismatch: hence `suppressHydrationWarning`.
        <noscript suppressHydrationWarning>
          <div className={CAPTCHA_BOX_CLASS}><p className="text-sm text-slate-700">{s.captchaNoScript}</p></div>
        </noscript>
      )}
      <p className="mt-4 text-sm text-slate-600">
        <RichText text={s.privacyNote} tags={{
          privacy: (t) => <a href={privacyHref} className="font-medium text-teal-700 underline underline-offset-2">{t}</a>,
          data: (t) => <a href={dataHandlingHref} className="font-medium text-teal-700 underline underline-offset-2">{t}</a>,
        }} />
      </p>
      <button type="submit" disabled={sending.value}
        className={`${PRIMARY_BUTTON} mt-6 w-full rounded-lg px-5 py-3 disabled:cursor-not-allowed disabled:opacity-70 sm:w-auto`}>
        {sending.value ? s.sending : s.submit}
      </button>
    </form>
    <Toaster closeLabel={s.close} />
    </>
  );
}
