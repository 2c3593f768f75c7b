/**
 * The mailbox an address delivers to, as one key: what the service counts mails by, so that
 * variants of one address (case, a sub-address tag, dots Gmail ignores) share one throttle.
 * The key is never used as a recipient; mails go to the address as typed.
 *
 * @example mailboxKey('Ana.Perez+news@GoogleMail.com') // → 'anaperez@gmail.com'
 * @example mailboxKey('bomb+7@example.com')            // → 'bomb@example.com'
 * @example mailboxKey('j.de.vries@example.nl')         // → 'j.de.vries@example.nl' (dots kept)
 */

// Providers that deliver `a.b.c@` to `abc@` (Gmail documents it; googlemail.com is the same
// mailboxes). Elsewhere a dot is part of the name and two dotted spellings are two people.
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/** The key of the mailbox `email` (a contract-valid address) delivers to. */
export function mailboxKey(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const domain = lower.slice(at + 1);
  // Sub-addressing (RFC 5233): `name+tag@` is delivered to `name@` by Gmail, Outlook, iCloud,
  // Fastmail, Proton and Postfix/Dovecot's default. A local part that starts with `+` keeps it.
  let local = lower.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless === undefined ? `${local}@${domain}` : `${local.replaceAll('.', '')}@${dotless}`;
}
