/**
 * Webhooks under kill -9: three replicas deliver to one slow receiver (each answer takes 300 ms,
 * so deliveries are in flight when a replica dies) while contacts arrive, and a random replica is
 * killed twice and restarted. Afterwards every acknowledged contact reached the receiver as a
 * verified `contact.received` event, each event under one `webhook-id` (a delivery cut off by a
 * kill may arrive twice, with the same id, so the receiver drops the copy), and no delivery was
 * ever sent by two replicas at the same moment.
 */
import pg from 'pg';
import { expect } from 'vitest';
import { webhookReceiver } from '../helpers/webhook-receiver.ts';
import { startLoad } from './support/load.ts';
import { pause, reportFigures, scenario, stackPerTest } from './support/scenario.ts';

const startStack = stackPerTest();

/** Waits until no lead waits for its webhook event to be queued and no delivery is pending or being sent; returns how long that took. */
async function untilWebhooksDrained(url: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: string }>("SELECT (SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'sending')) + (SELECT count(*) FROM contacts WHERE webhook_waiting = 1) AS n");
      if (Number(rows[0]!.n) === 0) return Date.now() - started;
      if (Date.now() - started > timeoutMs) throw new Error(`${rows[0]!.n} webhook deliveries still waiting after ${timeoutMs} ms`);
      await pause(100);
    }
  } finally {
    await client.end();
  }
}

scenario('delivers every acknowledged lead to the webhook once per webhook-id when replicas are killed mid-delivery', async () => {
  const receiver = await webhookReceiver();
  receiver.delayMs = 300;
  try {
    const stack = await startStack({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: receiver.secret, WEBHOOK_ALLOW_PRIVATE: '1' });
    const { replicas } = stack;
    const load = startLoad(() => replicas.live(), { concurrency: 6, tag: 'hookkill', perSecond: 20 });
    for (let kill = 0; kill < 2; kill++) {
      await pause(2000);
      const victim = Math.floor(Math.random() * replicas.replicas.length);
      replicas.kill(victim);
      await pause(800);
      await replicas.restart(victim);
    }
    await pause(1000);
    const report = await load.stop();
    const drainMs = await untilWebhooksDrained(stack.cluster.url, 60_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${replicas.logTails()}`);
    });

    const events = receiver.received.filter((hook) => hook.event?.type === 'contact.received');
    expect(receiver.received.filter((hook) => hook.event === null), 'deliveries whose signature did not verify').toEqual([]);
    const idsByEmail = new Map<string, Set<string>>();
    for (const hook of events) {
      const email = String(hook.event!.data.email);
      idsByEmail.set(email, (idsByEmail.get(email) ?? new Set()).add(hook.id));
    }
    expect(report.contacts.filter((email) => !idsByEmail.has(email)), 'acknowledged contacts never delivered to the webhook').toEqual([]);
    expect([...idsByEmail].filter(([, ids]) => ids.size > 1).map(([email]) => email), 'contacts delivered under two webhook-ids').toEqual([]);
    expect(receiver.maxOpenPerId(), 'one delivery sent by two replicas at the same moment').toBeLessThanOrEqual(1);
    reportFigures('webhooks, kill -9 ×2', {
      'contacts acknowledged': report.contacts.length,
      'events received': events.length,
      'received twice (same webhook-id)': events.length - idsByEmail.size,
      'drain ms': drainMs,
    });
    expect(report.contacts.length).toBeGreaterThan(10);
  } finally {
    await receiver.close();
  }
});
