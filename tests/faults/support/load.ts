/**
 * Load from the test itself, as visitors behind a load balancer make it: `concurrency` loops,
 * each posting contact messages (captcha fetched, solved, posted, possibly to another replica)
 * and newsletter signups in turn, each to the next live replica. Every address is unique, so an
 * acknowledged (201) submission can be looked for in the database and the mail afterwards.
 * A connection that breaks (a replica killed mid-request) is counted, not retried: the visitor
 * saw an error and was never told the row was stored. Submissions arrive at a fixed rate
 * (`perSecond`, while the replicas keep up), so a fast machine makes no more mail than a slow one
 * and each scenario's drain limits mean the same everywhere.
 */
import { contactBody, signupBody } from '../../helpers/form-bodies.ts';

/** What the load did: acknowledged addresses by form, and every answer counted. */
export interface LoadReport {
  contacts: string[];
  signups: string[];
  /** HTTP status → how many answers had it; `connection` counts requests that got no answer. */
  answers: Record<string, number>;
}

/** A running load; `stop` waits for the requests in flight. */
export interface Load {
  stop(): Promise<LoadReport>;
  /** Acknowledged submissions so far. */
  acknowledged(): number;
}

const TIMEOUT_MS = 15_000;

/** Starts the load on whichever replicas `targets()` names at each request; `tag` keeps addresses unique per scenario. */
export function startLoad(targets: () => string[], options: { concurrency: number; tag: string; perSecond?: number }): Load {
  const gapMs = 1000 / (options.perSecond ?? 40);
  let nextSlot = Date.now();
  // Waits for this submission's turn in the schedule.
  const paced = async () => {
    const slot = Math.max(Date.now(), nextSlot);
    nextSlot = slot + gapMs;
    if (slot > Date.now()) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
  };
  const report: LoadReport = { contacts: [], signups: [], answers: {} };
  let running = true;
  let turn = 0;
  const count = (answer: number | 'connection') => {
    report.answers[answer] = (report.answers[answer] ?? 0) + 1;
  };
  const next = () => {
    const live = targets();
    return live[turn++ % Math.max(live.length, 1)];
  };
  const post = async (url: string, path: string, body: unknown): Promise<number | 'connection'> => {
    try {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 'connection';
    }
  };

  const contact = async (n: number): Promise<void> => {
    const from = next();
    if (from === undefined) return;
    let captcha: { token: string; answer: number };
    try {
      const res = await fetch(`${from}/api/captcha`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.status !== 200) {
        count(res.status);
        await res.arrayBuffer();
        return;
      }
      const challenge = (await res.json()) as { a: number; b: number; token: string };
      captcha = { token: challenge.token, answer: challenge.a + challenge.b };
    } catch {
      count('connection');
      return;
    }
    const to = next();
    if (to === undefined) return;
    const email = `contact-${options.tag}-${n}@example.com`;
    const status = await post(to, '/api/contact', contactBody(email, `Fault suite message ${n}`, captcha));
    count(status);
    if (status === 201) report.contacts.push(email);
  };

  const signup = async (n: number): Promise<void> => {
    const to = next();
    if (to === undefined) return;
    const email = `signup-${options.tag}-${n}@example.com`;
    const status = await post(to, '/api/newsletter', signupBody(email));
    count(status);
    if (status === 201) report.signups.push(email);
  };

  let serial = 0;
  const loops = Array.from({ length: options.concurrency }, async () => {
    while (running) {
      await paced();
      if (!running) break;
      const n = serial++;
      await (n % 2 === 0 ? contact(n) : signup(n));
      // No live replica at all: wait for the supervisor rather than spin.
      if (targets().length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  return {
    acknowledged: () => report.contacts.length + report.signups.length,
    async stop() {
      running = false;
      await Promise.all(loops);
      return report;
    },
  };
}
