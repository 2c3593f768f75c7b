/**
 * Where the webhook's cost on the submission path is, without HTTP: the SQLite store takes contacts
 * from 50 concurrent callers (group commit, synchronous=FULL, as in production), once with no
 * endpoint and once with one, so that each contact's transaction also stores its
 * `contact.received` event (a flag on the contact row, `waiting-contacts.ts`; no worker runs here to
 * queue it as delivery rows). Reported: CPU per contact in this process (the store writes on the
 * main thread), the median of interleaved rounds, and the difference. The HTTP rows beside it
 * (`ingest.bench.ts`) say what that difference is worth against a whole request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../ingest/config.ts';
import { contactSchema, validate } from '../../ingest/contract/schemas.ts';
import { openBackend } from '../../ingest/store/open-backend.ts';
import { concurrentCallers } from './concurrent-callers.ts';

const CALLERS = 50;

/** A secret in the `whsec_` form; nothing is ever sent to the endpoint. */
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** CPU µs per contact over `count` contacts stored into a fresh SQLite file, with or without one endpoint. */
async function cpuPerContact(webhook: boolean, count: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-queue-cost-'));
  const env: Record<string, string> = { DATA_DIR: dir, MAIL_DIR: join(dir, 'mail') };
  if (webhook) Object.assign(env, { WEBHOOK_URL: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE: '1' });
  const config = resolveConfig(env, dir);
  if (!config.ok) throw new Error(config.errors.join('\n'));
  const backend = await openBackend(config.config);
  const store = concurrentCallers(CALLERS, async (n) => {
    const body = { firstName: 'Bench', lastName: 'Mark', email: `queue-${n}@example.com`, phone: null, companyName: 'Bench Datos', country: 'es', message: 'A contact message from the benchmark.', lang: 'en', captcha: { token: 't', answer: 1 } };
    const contact = validate(contactSchema, body);
    if (!contact.ok) throw new Error('the bench contact does not pass the contract');
    const now = Date.now();
    await backend.submissions.submitContact(contact.data, { value: `nonce-${n}`, expiresAt: now + 60_000 }, now);
  });
  try {
    await store(Math.min(2_000, count));
    const before = process.cpuUsage();
    await store(count);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  } finally {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The table's rows: CPU per contact without and with one endpoint, `rounds` interleaved rounds of `count` contacts each. */
export async function webhookQueueCostRows(count: number, rounds: number): Promise<Array<Record<string, string | number>>> {
  const without: number[] = [];
  const withOne: number[] = [];
  for (let round = 0; round < rounds; round++) {
    without.push(await cpuPerContact(false, count));
    withOne.push(await cpuPerContact(true, count));
  }
  const [plain, hooked] = [median(without), median(withOne)];
  return [
    { 'SQLite store, no HTTP': 'contacts, no endpoint', 'CPU µs/contact': Math.round(plain), queueing: '-' },
    { 'SQLite store, no HTTP': 'contacts, 1 endpoint (event stored)', 'CPU µs/contact': Math.round(hooked), queueing: `+${Math.round(hooked - plain)} µs` },
  ];
}
