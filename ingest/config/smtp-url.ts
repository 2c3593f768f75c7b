/**
 * How the service reaches its mail relay, read from `SMTP_URL`: TLS is required unless the relay
 * is on loopback or the operator opts out in the URL, so a relay (or anyone on the path) that drops
 * STARTTLS never gets the credentials and the leads in clear text.
 *
 * | SMTP_URL | TLS |
 * |---|---|
 * | `smtps://mail.example.com:465` | from the first byte (`implicit`) |
 * | `smtp://mail.example.com:587` | STARTTLS `required`: a relay that does not offer it gets no AUTH and no mail |
 * | `smtp://mail.example.com:587?starttls=optional` | STARTTLS when offered, else clear text: the operator's explicit choice |
 * | `smtp://127.0.0.1:25` (127.0.0.0/8, `[::1]`, `localhost`) | STARTTLS when offered (`optional`); `?starttls=required` asks for it |
 *
 * The URL's other query parameters go to nodemailer as they are, except those that would undo
 * this choice behind its back (`requireTLS`, `secure`, and `ignoreTLS`/`opportunisticTLS` where
 * TLS is required): those are refused with a line saying what to write instead.
 */
import { isLoopbackHost } from './loopback.ts';

/** How a connection to the relay is protected: TLS from the start, STARTTLS required, or STARTTLS when offered. */
export type SmtpTls = 'implicit' | 'required' | 'optional';

/** The values `?starttls=` takes. */
const STARTTLS_CHOICES = ['required', 'optional'] as const;

/** What `smtpTransport` makes of a URL: nodemailer's URL (without `starttls`) and the TLS it must use, or the problem. */
type SmtpTransportResult = { ok: true; url: string; tls: SmtpTls } | { ok: false; problem: string };

// nodemailer's own URL options about TLS: taken from the URL, they would override the service's choice.
const ALWAYS_REFUSED: Readonly<Record<string, string>> = {
  requireTLS: 'must not set requireTLS: write ?starttls=required (the default for a relay not on loopback) or ?starttls=optional',
  secure: 'must not set secure: write smtps:// for TLS from the first byte, smtp:// for STARTTLS',
};
const CLEAR_TEXT_OPTIONS = ['ignoreTLS', 'opportunisticTLS'];

/**
 * Reads `SMTP_URL` (`value`) into what the mailer needs, or says in one line what is wrong (the
 * value itself is never repeated: it holds the relay's password).
 *
 * @example smtpTransport('smtp://u:p@mail.example.com:587') // → { ok: true, url: 'smtp://u:p@mail.example.com:587', tls: 'required' }
 * @example smtpTransport('smtp://mail.example.com:25?starttls=optional') // → { ok: true, url: 'smtp://mail.example.com:25', tls: 'optional' }
 * @example smtpTransport('smtp://127.0.0.1:25') // → { ok: true, url: 'smtp://127.0.0.1:25', tls: 'optional' }
 */
export function smtpTransport(value: string): SmtpTransportResult {
  if (!URL.canParse(value) || !/^smtps?:$/.test(new URL(value).protocol)) {
    return { ok: false, problem: 'must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587' };
  }
  const url = new URL(value);
  for (const [name, problem] of Object.entries(ALWAYS_REFUSED)) if (url.searchParams.has(name)) return { ok: false, problem };
  const asked = url.searchParams.getAll('starttls');
  if (asked.length > 1 || (asked.length === 1 && !(STARTTLS_CHOICES as readonly string[]).includes(asked[0]!))) {
    return { ok: false, problem: 'must say ?starttls=required or ?starttls=optional (once; optional sends in clear text to a relay that offers no STARTTLS)' };
  }
  const starttls = asked[0] as (typeof STARTTLS_CHOICES)[number] | undefined;
  if (url.protocol === 'smtps:') {
    if (starttls !== undefined) return { ok: false, problem: 'must not set starttls with smtps://, which uses TLS from the first byte' };
    return { ok: true, url: value, tls: 'implicit' };
  }
  const tls = starttls ?? (isLoopbackHost(url.hostname) ? 'optional' : 'required');
  const clearText = CLEAR_TEXT_OPTIONS.find((name) => url.searchParams.has(name));
  if (tls === 'required' && clearText !== undefined) {
    return { ok: false, problem: `must not set ${clearText} while STARTTLS is required (a relay not on loopback); add ?starttls=optional to allow clear text` };
  }
  if (starttls === undefined) return { ok: true, url: value, tls };
  url.searchParams.delete('starttls');
  return { ok: true, url: url.toString(), tls };
}
