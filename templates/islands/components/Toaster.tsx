import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { SvgIcon } from '../../ui/Icon.tsx';
import * as icons from '../../ui/icon-paths.ts';
import { currentToast, dismissToast, TOAST_REMOVE_DELAY_MS } from './toast-store.ts';

/**
 * Shows the current toast in the corner of the screen, with a close button. Two live regions
 * exist from the start so screen readers announce a toast when it appears: failures as alerts,
 * confirmations politely.
 */
export function Toaster({ closeLabel }: { closeLabel: string }) {
  useSignals();
  const toast = currentToast.value;
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(dismissToast, TOAST_REMOVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [toast?.id]);
  const card = (variant: 'default' | 'destructive') =>
    toast?.variant === variant && (
      <div
        data-toast={variant}
        className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl p-4 shadow-xl ring-1 ${
          variant === 'destructive' ? 'bg-rose-700 text-white ring-rose-800' : 'bg-white text-slate-900 ring-slate-200'
        }`}
      >
        <div className="flex-1">
          <p className="font-semibold">{toast.title}</p>
          <p className={`mt-1 text-sm ${variant === 'destructive' ? 'text-rose-50' : 'text-slate-600'}`}>{toast.description}</p>
        </div>
        <button type="button" onClick={dismissToast} aria-label={closeLabel}
          className={`rounded-md p-1 ${variant === 'destructive' ? 'hover:bg-rose-800' : 'hover:bg-slate-100'}`}>
          <SvgIcon d={icons.close} className="h-5 w-5" />
        </button>
      </div>
    );
  return (
    <div className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-end sm:left-auto sm:w-96">
      <div role="alert" aria-live="assertive" className="w-full">{card('destructive')}</div>
      <div role="status" aria-live="polite" className="w-full">{card('default')}</div>
    </div>
  );
}
