import type { Lang } from '../../../ingest/contract/schemas.ts';
import { PRIMARY_BUTTON } from '../../ui/button-classes.ts';

/**
 * What the form of a token page (the newsletter's confirm and unsubscribe pages, the contact
 * message's confirm page) shows and where it posts.
 */
export interface TokenFormProps {
  lang: Lang;
  /**
   * The service's endpoint for this page (`/api/newsletter/confirm`): the island points the form
   * at it, so the post reaches the service even from a host that cannot forward a page's POST.
   */
  endpoint: string;
  /** The button's text. */
  submit: string;
  /** Below the button: that nothing happens without it. */
  note: string;
  /** Shown instead of the form when the page's address has no token (the island decides; it needs JavaScript). */
  noToken: string;
  /** The "link not valid" page and the words that link to it, below `noToken`. */
  noTokenLink: { href: string; label: string };
}

/**
 * The form of a token page: a plain `<form method="post">` without `action`, so that without
 * JavaScript it posts to the page's own URL, `?token=…` included, which the host forwards to the
 * service. The body is `lang=<lang>`. Its island (`entries/TokenForm.tsx`) only adjusts this
 * markup: it renders nothing with React.
 */
export function TokenForm({ lang, submit, note, noToken, noTokenLink }: TokenFormProps) {
  return (
    <>
      <form method="post" data-form="token">
        <input type="hidden" name="lang" value={lang} />
        <button type="submit" className={`${PRIMARY_BUTTON} w-full rounded-lg px-6 py-3 sm:w-auto`}>
          {submit}
        </button>
        <p className="mt-8 text-slate-600">{note}</p>
      </form>
      <div hidden data-token-missing="" className="rounded-lg bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200">
        <p>{noToken}</p>
        <a href={noTokenLink.href} className="mt-2 inline-block font-medium underline underline-offset-2 hover:text-amber-950">{noTokenLink.label}</a>
      </div>
    </>
  );
}
