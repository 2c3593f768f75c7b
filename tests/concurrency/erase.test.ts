/**
 * `ingest erase --email` while the same address signs up again and again: the operator's command
 * runs as its own process on the database the service uses, and bursts of N identical signups of
 * that address reach the service all the while. Whatever the order in which they meet, the result
 * must be one the two could have made one after the other: the erasure recorded once and reporting
 * what it removed, at most one subscription left and, if one is left, complete (its `subscribed`
 * event, at most one confirmation mail); at most one confirmation mail for the new subscription,
 * and every signup answered alike.
 */
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { signupBody } from '../helpers/form-bodies.ts';
import { query } from '../helpers/ledger.ts';
import type { Answer } from './support/burst.ts';
import { books, grew, settled } from './support/books.ts';
import { json } from './support/burst.ts';
import { atMost, count, exactly, fact, sameShape, verdict } from './support/report.ts';
import { N, sendAtOnce, sendOnce, stackLabel } from './support/requests.ts';
import { onEachBackend, type Stack } from './support/stack.ts';

const BIN = new URL('../../ingest/bin.js', import.meta.url).pathname;
const ADDRESS = 'erase-me@example.com';

/** What `ingest erase` did: its exit code and the rows it says it removed. */
interface Erasure {
  code: number | null;
  newsletter: number | null;
  output: string;
}

// Runs `ingest erase --email ADDRESS` as an operator would on the replicas' host.
function erase(stack: Stack, address: string): Promise<Erasure> {
  const child = spawn(process.execPath, [BIN, 'erase', '--email', address], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...stack.operatorEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, newsletter: Number(/newsletter (\d+)/.exec(output)?.[1] ?? Number.NaN), output })),
  );
}

// The remaining subscription's own records: its `subscribed` events and its outbox rows.
async function ownRecords(stack: Stack, address: string): Promise<{ subscribed: number; outbox: number }> {
  const key = `'${address}'`;
  const [events] = await query<{ n: number | string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM consent_events e JOIN newsletter s ON e.newsletter_id = s.id WHERE s.email_lower = ${key} AND e.event = 'subscribed'`,
  );
  const [outbox] = await query<{ n: number | string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM outbox o JOIN newsletter s ON o.newsletter_id = s.id WHERE s.email_lower = ${key}`,
  );
  return { subscribed: Number(events?.n ?? 0), outbox: Number(outbox?.n ?? 0) };
}

onEachBackend((stack) => {
  it(`erases an address once and leaves a whole subscription or none while ${N} signups of it arrive at once, again and again`, async () => {
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(ADDRESS)))).status).toBe(201);
    await settled(stack());
    const before = await books(stack(), ADDRESS);

    // Bursts of N signups from before the command starts until after it ended, with a pause
    // between them that leaves the two cores to the command too.
    const answers: Answer[] = [];
    let erasing = true;
    const started = Date.now();
    let tookMs = 0;
    const erasure = erase(stack(), ADDRESS).finally(() => {
      erasing = false;
      tookMs = Date.now() - started;
    });
    let bursts = 0;
    while (erasing || bursts === 0) {
      answers.push(...(await sendAtOnce(stack(), '/api/newsletter', json(signupBody(ADDRESS)))));
      bursts += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    answers.push(...(await sendAtOnce(stack(), '/api/newsletter', json(signupBody(ADDRESS)))));
    const erased = await erasure;
    await settled(stack());
    const after = await books(stack(), ADDRESS);
    const own = await ownRecords(stack(), ADDRESS);
    const left = after.subscriptions;

    if (erased.code !== 0) process.stdout.write(`\ningest erase --email ${ADDRESS} exited with ${erased.code}:\n${erased.output}\n`);
    verdict(`${stackLabel(stack())} · ingest erase against ${bursts + 1} bursts of ${N} signups of the same address`, [
      fact('erase exit code', String(erased.code), '0', erased.code === 0),
      fact('erase took (ms)', String(tookMs), 'reported', true),
      fact('erase warned', /warning: (.*)/.exec(erased.output)?.[1] ?? 'no', 'reported', true),
      sameShape(answers, '201 {next,ok}'),
      count('subscriptions the erase reports', erased.newsletter ?? Number.NaN, exactly(1)),
      count('`erased` events', grew(before.events, after.events, 'erased'), exactly(erased.newsletter ?? Number.NaN)),
      count('subscriptions left', left, atMost(1)),
      count('new `subscribed` events (signed up again after the erasure)', grew(before.events, after.events, 'subscribed'), atMost(1)),
      count('`subscribed` events of the subscription left', own.subscribed, exactly(left)),
      count('outbox rows of the subscription left', own.outbox, atMost(left)),
      count('new confirmation mails delivered', after.mails.confirmation - before.mails.confirmation, atMost(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });
});
