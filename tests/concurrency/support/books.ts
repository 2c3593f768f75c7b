/**
 * The counts a concurrency scenario is judged by, read as an auditor would: straight from the
 * database (not through the service under test), from the mails the SMTP peer accepted and from
 * the webhook events the receiver verified.
 * Consent events and outbox rows are counted over the whole database and compared before and
 * after a burst (an `unsubscribed` event keeps no link to its subscription); rows and mails are
 * counted for the scenario's own address (or the variants of one mailbox it uses: `ana+1@…`,
 * `a.na@gmail.com`), which no other scenario uses.
 */
import { SERVICE_PAGES } from '../../../ingest/contract/service-pages.ts';
import { query, untilOutboxDrained } from '../../helpers/ledger.ts';
import { type Mail, parseMail } from '../../helpers/mail-message.ts';
import { SALES_EMAIL, type Stack } from './stack.ts';

/** What a visitor's mail is, by the link it carries; `notice` has none of these (such as "you are already subscribed"). */
type VisitorMailKind = 'confirmation' | 'contactConfirmation' | 'notice';

/** One delivered mail about an address. */
interface Delivered {
  kind: VisitorMailKind | 'sales';
  mail: Mail;
  messageId: string;
}

/** The counts at one moment. */
export interface Books {
  /** The address's newsletter rows, and how many are confirmed. */
  subscriptions: number;
  confirmed: number;
  /** The address's contact rows, and how many are verified. */
  contacts: number;
  verified: number;
  /** Consent events by kind (`subscribed`, `confirmed`, `unsubscribed`, `erased`, …), whole database. */
  events: Record<string, number>;
  /** Outbox rows by kind (`newsletter_confirm`, `contact_confirm`, `sales`, …), whole database. */
  outbox: Record<string, number>;
  /** Mails delivered about the address, by kind (sales mails: those whose Reply-To is the address). */
  mails: Record<Delivered['kind'], number>;
  /** Mails delivered more than once (the same Message-ID). */
  duplicateMails: number;
  /** Webhook events the receiver verified about the addresses, by type, each `webhook-id` once. */
  webhooks: Record<string, number>;
}

const byKey = (rows: Array<{ key: string; n: number | string }>) => Object.fromEntries(rows.map((row) => [row.key, Number(row.n)]));

// The addresses as an SQL list; the scenarios write them literally (no quote in them), so the SQL stays the same on both backends.
const sqlList = (addresses: Addresses) => `(${lowerCased(addresses).map((address) => `'${address.replace(/'/g, "''")}'`).join(', ')})`;

/** One address, or the variants of one mailbox; compared whatever their case. */
type Addresses = string | readonly string[];

const lowerCased = (addresses: Addresses) => (typeof addresses === 'string' ? [addresses] : addresses).map((address) => address.toLowerCase());

/** The mails the peer accepted that concern `addresses`: sent to one of them, or to sales with one as Reply-To. */
function mailsAbout(stack: Stack, addresses: Addresses): Delivered[] {
  const wanted = lowerCased(addresses);
  return stack.smtp.messages.flatMap((raw, index): Delivered[] => {
    const recipients = (stack.smtp.recipients[index] ?? []).map((recipient) => recipient.toLowerCase());
    const mail = parseMail(Buffer.from(raw, 'utf8'));
    const messageId = mail.header('message-id') ?? `#${index}`;
    if (recipients.some((recipient) => wanted.includes(recipient))) return [{ kind: visitorMailKind(mail), mail, messageId }];
    const replyTo = (mail.header('reply-to') ?? '').toLowerCase();
    if (recipients.includes(SALES_EMAIL) && wanted.some((address) => replyTo.includes(address))) return [{ kind: 'sales', mail, messageId }];
    return [];
  });
}

// The links of a mail's text body, as URLs.
const linksOf = (mail: Mail) => [...mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map(([url]) => new URL(url));

function visitorMailKind(mail: Mail): VisitorMailKind {
  const paths = linksOf(mail).map((url) => url.pathname);
  if (paths.some((path) => path.endsWith(SERVICE_PAGES.newsletterConfirm))) return 'confirmation';
  if (paths.some((path) => path.endsWith(SERVICE_PAGES.contactConfirm))) return 'contactConfirmation';
  return 'notice';
}

/** The tokens of the links to `page` in the mails delivered to `address` (as the visitor would click them), oldest first. */
export function linkTokens(stack: Stack, address: string, page: keyof typeof SERVICE_PAGES): string[] {
  const links = mailsAbout(stack, address).flatMap(({ mail }) => linksOf(mail));
  return links.filter((url) => url.pathname.endsWith(SERVICE_PAGES[page]) && url.searchParams.has('token')).map((url) => url.searchParams.get('token')!);
}

/** The token of the newest delivered mail to `address` with a link to `page`, or undefined. */
export function newestToken(stack: Stack, address: string, page: keyof typeof SERVICE_PAGES): string | undefined {
  return linkTokens(stack, address, page).at(-1);
}

/** The RFC 8058 one-click address (`List-Unsubscribe`) of the newest mail to `address` that has one, as path and query. */
export function newestOneClick(stack: Stack, address: string): string | undefined {
  const headers = mailsAbout(stack, address).flatMap(({ mail }) => mail.header('list-unsubscribe') ?? []);
  const url = /^<([^>]+)>/.exec(headers.at(-1) ?? '')?.[1];
  return url === undefined ? undefined : new URL(url).pathname + new URL(url).search;
}

/**
 * Waits until the mail the service queued has gone out (no outbox row pending or sending; a row is
 * marked sent only after the peer accepted its mail), and the peer's count is still for 100 ms, so
 * that the counts that follow are final.
 */
export async function settled(stack: Stack, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  await untilOutboxDrained(stack.databaseUrl, timeoutMs).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n${stack.logTails()}`);
  });
  // The webhook events too: none waiting on its contact row, pending or being sent (a delivered row is marked after the receiver's 2xx).
  const waitingHooks = async () =>
    Number((await query<{ n: number | string }>(stack.databaseUrl, "SELECT (SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'sending')) + (SELECT count(*) FROM contacts WHERE webhook_waiting = 1) AS n"))[0]!.n);
  while ((await waitingHooks()) !== 0) {
    if (Date.now() - started > timeoutMs) throw new Error(`webhook deliveries still waiting after ${timeoutMs} ms\n${stack.logTails()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let seen = -1;
  while (seen !== stack.smtp.messages.length && Date.now() - started < timeoutMs) {
    seen = stack.smtp.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The verified webhook events about `addresses` by type, counting each `webhook-id` once. */
function webhooksAbout(stack: Stack, addresses: Addresses): Record<string, number> {
  const wanted = lowerCased(addresses);
  const seen = new Set<string>();
  const counts: Record<string, number> = {};
  for (const hook of stack.hooks.received) {
    if (hook.event === null || seen.has(hook.id) || !wanted.includes(String(hook.event.data.email).toLowerCase())) continue;
    seen.add(hook.id);
    counts[hook.event.type] = (counts[hook.event.type] ?? 0) + 1;
  }
  return counts;
}

/** The counts for `addresses` (one, or the variants of one mailbox) now. */
export async function books(stack: Stack, addresses: Addresses): Promise<Books> {
  const url = stack.databaseUrl;
  const keys = sqlList(addresses);
  const [subscriptions] = await query<{ n: number | string; confirmed: number | string | null }>(
    url,
    `SELECT count(*) AS n, sum(CASE WHEN status = 'confirmed' THEN 1 ELSE 0 END) AS confirmed FROM newsletter WHERE email_lower IN ${keys}`,
  );
  const [contacts] = await query<{ n: number | string; verified: number | string | null }>(
    url,
    `SELECT count(*) AS n, sum(CASE WHEN verified_at IS NULL THEN 0 ELSE 1 END) AS verified FROM contacts WHERE email_lower IN ${keys}`,
  );
  const events = byKey(await query(url, 'SELECT event AS key, count(*) AS n FROM consent_events GROUP BY event'));
  const outbox = byKey(await query(url, 'SELECT kind AS key, count(*) AS n FROM outbox GROUP BY kind'));
  const delivered = mailsAbout(stack, addresses);
  const mails = { confirmation: 0, contactConfirmation: 0, notice: 0, sales: 0 };
  for (const one of delivered) mails[one.kind] += 1;
  return {
    subscriptions: Number(subscriptions?.n ?? 0),
    confirmed: Number(subscriptions?.confirmed ?? 0),
    contacts: Number(contacts?.n ?? 0),
    verified: Number(contacts?.verified ?? 0),
    events,
    outbox,
    mails,
    duplicateMails: delivered.length - new Set(delivered.map((one) => one.messageId)).size,
    webhooks: webhooksAbout(stack, addresses),
  };
}

/** How a count changed from `before` to `after` (a kind absent on one side counts 0). */
export function grew(before: Record<string, number>, after: Record<string, number>, kind: string): number {
  return (after[kind] ?? 0) - (before[kind] ?? 0);
}
