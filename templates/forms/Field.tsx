import type { ReactNode } from 'react';

/** Shared classes of text inputs, selects and text areas. */
export const INPUT_CLASS =
  'block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 aria-[invalid=true]:border-rose-600';

/**
 * A labelled form control with its error message, tied together for screen readers
 * (`aria-describedby` names the error element, which is empty until there is an error).
 */
export function Field({ id, label, hint, error, children }: {
  id: string;
  label: ReactNode;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <div className="mt-1.5">{children}</div>
      <p id={`${id}-error`} className="mt-1.5 min-h-5 text-sm text-rose-700" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

/** The "(optional)" marker after a label. */
export function Optional({ text }: { text: string }) {
  return <span className="font-normal text-slate-500"> ({text})</span>;
}
