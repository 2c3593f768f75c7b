/**
 * What a webhook endpoint is told about one person, when the person confirms and leaves at once:
 * on PostgreSQL the confirmation goes to one replica and the unsubscription to the other, each
 * replica's worker sending what its own request queued. The receiver (a real one, verifying every
 * delivery with `standardwebhooks`) applies events as they arrive, as listmonk's guidance and our
 * guide's first receiver did, and must end with "unsubscribed" for every person: when it answers
 * the confirmation 503 once, when it is slow and never fails, and after an operator's
 * `ingest webhooks retry --all`. (The red team saw the slow case reorder 2 of 15 tight races.)
 */
import { expect, it } from 'vitest';
import { signupBody } from '../helpers/form-bodies.ts';
import { query } from '../helpers/ledger.ts';
import { acceptedSequences, lastAppliedByAddress } from '../helpers/webhook-receiver.ts';
import { newestOneClick, newestToken, settled } from './support/books.ts';
import { burst, form, json } from './support/burst.ts';
import { runIngest } from './support/operator.ts';
import { count, exactly, verdict } from './support/report.ts';
import { sendEachAtOnce, stackLabel } from './support/requests.ts';
import { onEachBackend, SITE_URL, type Stack } from './support/stack.ts';

/** People per scenario, each confirming and leaving at once. */
const PEOPLE = 4;

const people = (scenario: string) => Array.from({ length: PEOPLE }, (_, i) => `order-${scenario}-${i}@example.com`);

/** Signs each address up and waits for the mails; returns each one's confirmation token and one-click unsubscribe address. */
async function signedUp(stack: Stack, addresses: readonly string[]) {
  await sendEachAtOnce(stack, addresses.map((address) => ({ path: '/api/newsletter', ...json(signupBody(address)) })));
  await settled(stack);
  return addresses.map((address) => ({ address, confirm: newestToken(stack, address, 'newsletterConfirm')!, leave: newestOneClick(stack, address)! }));
}

/** Person i's confirmation to replica i, its unsubscription to the next one (the other, on PostgreSQL). */
const confirmAll = (stack: Stack, links: ReadonlyArray<{ confirm: string }>) =>
  burst(links.map(({ confirm }, i) => ({ url: `${stack.urls[i % stack.urls.length]}/api/newsletter/confirm`, ...json({ token: confirm }) })));
const leaveAll = (stack: Stack, links: ReadonlyArray<{ leave: string }>) =>
  burst(
    links.map(({ leave }, i) => ({ url: `${stack.urls[(i + 1) % stack.urls.length]}${leave}`, ...form({ 'List-Unsubscribe': 'One-Click' }), headers: { origin: SITE_URL } })),
  );

/** How many of `addresses` the receiver holds as anything but unsubscribed, and how many got an accepted event older than one accepted before it. */
function judged(stack: Stack, addresses: readonly string[]) {
  const last = lastAppliedByAddress(stack.hooks);
  return {
    subscribed: addresses.filter((address) => last.get(address) !== 'newsletter.unsubscribed').length,
    outOfOrder: addresses.filter((address) => acceptedSequences(stack.hooks, address).some((seq, i, all) => i > 0 && seq <= all[i - 1]!)).length,
  };
}

const hooksAbout = (stack: Stack, address: string, type: string) => stack.hooks.received.filter((hook) => hook.event?.type === type && hook.event.data.email === address);

onEachBackend((stack) => {
  it(`leaves a receiver that answered each confirmation 503 once with "unsubscribed" for all ${PEOPLE} people who left at once`, async () => {
    const addresses = people('503');
    const links = await signedUp(stack(), addresses);
    const refused = new Set<string>();
    stack().hooks.answer = (event) => {
      const email = String(event?.data.email);
      if (event?.type !== 'newsletter.confirmed' || refused.has(email)) return 204;
      refused.add(email);
      return 503;
    };
    try {
      await confirmAll(stack(), links);
      // Each confirmation answered 503 and waiting for its retry (10 s), as the red team saw it.
      const waiting = `SELECT count(*) AS n FROM webhook_deliveries WHERE event_type = 'newsletter.confirmed' AND status = 'pending' AND attempts = 1 AND email_lower IN (${addresses.map((a) => `'${a}'`).join(', ')})`;
      await expect.poll(async () => Number((await query<{ n: number | string }>(stack().databaseUrl, waiting))[0]!.n), { timeout: 10_000 }).toBe(PEOPLE);
      await leaveAll(stack(), links);
      // Waits out any delivery still due: had the confirmations stayed due, their retry (10 s) would come first.
      await settled(stack(), 30_000);
    } finally {
      stack().hooks.answer = 204;
    }
    const outcome = judged(stack(), addresses);
    verdict(`${stackLabel(stack())} · ${PEOPLE} confirmations answered 503 once, then unsubscriptions`, [
      count('people the receiver holds as subscribed', outcome.subscribed, exactly(0)),
      count('people with an event accepted after a newer one', outcome.outOfOrder, exactly(0)),
      count('confirmations accepted', addresses.flatMap((address) => hooksAbout(stack(), address, 'newsletter.confirmed')).filter((hook) => hook.answered === 204).length, exactly(0)),
    ]);
  });

  it(`sends each of ${PEOPLE} unsubscriptions only after its confirmation was answered, when a slow receiver never fails`, async () => {
    const addresses = people('slow');
    const links = await signedUp(stack(), addresses);
    stack().hooks.delayMs = 500;
    try {
      await confirmAll(stack(), links);
      // Each confirmation on its way (open at the receiver), then the unsubscriptions, to the other replica.
      await expect.poll(() => addresses.filter((address) => hooksAbout(stack(), address, 'newsletter.confirmed').length > 0).length, { timeout: 10_000 }).toBe(PEOPLE);
      await leaveAll(stack(), links);
      await settled(stack(), 30_000);
    } finally {
      stack().hooks.delayMs = 0;
    }
    const overlapping = addresses.filter((address) => {
      const [confirmed] = hooksAbout(stack(), address, 'newsletter.confirmed');
      const [left] = hooksAbout(stack(), address, 'newsletter.unsubscribed');
      return confirmed !== undefined && left !== undefined && left.arrivedAt < (confirmed.closedAt ?? Number.POSITIVE_INFINITY);
    }).length;
    const outcome = judged(stack(), addresses);
    verdict(`${stackLabel(stack())} · ${PEOPLE} confirmations on one replica, unsubscriptions on the other, slow receiver`, [
      count('unsubscriptions sent while their confirmation was still open', overlapping, exactly(0)),
      count('people the receiver holds as subscribed', outcome.subscribed, exactly(0)),
      count('people with an event accepted after a newer one', outcome.outOfOrder, exactly(0)),
    ]);
  });

  it('`ingest webhooks retry` sends no stale confirmation after the person left, and says it skipped one named', async () => {
    const addresses = people('retry');
    const links = await signedUp(stack(), addresses);
    const last = (await query<{ last: number | string | null }>(stack().databaseUrl, 'SELECT max(id) AS last FROM webhook_deliveries'))[0]?.last;
    // The confirmations are refused (410) slowly: the unsubscriptions are queued while they are in flight, then go out.
    stack().hooks.delayMs = 800;
    stack().hooks.answer = (event) => (event?.type === 'newsletter.confirmed' ? 410 : 204);
    let all: Awaited<ReturnType<typeof runIngest>>;
    let named: Awaited<ReturnType<typeof runIngest>>;
    let stale: number[];
    try {
      await confirmAll(stack(), links);
      await expect.poll(() => addresses.filter((address) => hooksAbout(stack(), address, 'newsletter.confirmed').length > 0).length, { timeout: 10_000 }).toBe(PEOPLE);
      await leaveAll(stack(), links);
      await settled(stack(), 30_000);
      stack().hooks.delayMs = 0;
      stack().hooks.answer = 204;
      const rows = await query<{ id: number | string }>(stack().databaseUrl, `SELECT id FROM webhook_deliveries WHERE id > ${Number(last ?? 0)} AND event_type = 'newsletter.confirmed' ORDER BY id`);
      stale = rows.map((row) => Number(row.id));
      all = await runIngest(stack(), 'webhooks', 'retry', '--all');
      named = await runIngest(stack(), 'webhooks', 'retry', '--id', ...stale.map(String));
      await settled(stack(), 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a replica's worker polls every second
    } finally {
      stack().hooks.delayMs = 0;
      stack().hooks.answer = 204;
    }
    expect(all.code, all.output).toBe(0);
    expect(all.output).toBe('0 failed webhook deliveries are due again\n');
    expect(named.output).toBe(`0 failed webhook deliveries are due again\nskipped as superseded (a newer state of the same person is on its way to, or reached, that endpoint): ${stale.join(', ')}\n`);
    const outcome = judged(stack(), addresses);
    verdict(`${stackLabel(stack())} · ${PEOPLE} refused confirmations, unsubscriptions, then webhooks retry --all and --id`, [
      count('stale confirmations set aside', stale.length, exactly(PEOPLE)),
      count('confirmations sent again', addresses.flatMap((address) => hooksAbout(stack(), address, 'newsletter.confirmed')).length - PEOPLE, exactly(0)),
      count('people the receiver holds as subscribed', outcome.subscribed, exactly(0)),
      count('people with an event accepted after a newer one', outcome.outOfOrder, exactly(0)),
    ]);
  });
});
