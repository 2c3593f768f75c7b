/**
 * Stopping the real listening service under load from keep-alive clients: every request that
 * reached the server gets an answer, answers during the drain say `Connection: close`, `/readyz`
 * turns 503 at once, and every stored signup is still in the database afterwards.
 */
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../ingest/server.ts';
import { openSqlite } from '../../ingest/store/sqlite/connection.ts';
import { configFor, count, eventually, signup, tempDir } from './fixtures.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request on `agent`; a failure says whether it went out on a reused keep-alive socket. */
function send(agent: Agent, port: number, path: string, json?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: payload === undefined ? 'GET' : 'POST',
        agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reused: req.reusedSocket })));
    req.end(payload);
  });
}

describe('draining on shutdown', () => {
  it('answers every request of 12 keep-alive clients sent while the service stops, none cut off', async () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const service = await startService(
      configFor(temp.dir, { SHUTDOWN_DRAIN_MS: '1000', RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'silent' }),
    );
    cleanups.push(() => service.close());
    const port = Number(new URL(service.url).port);

    // A client that connected before the stop and sends its next request in the middle of the drain.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => idleAgent.destroy());
    expect((await send(idleAgent, port, '/readyz')).status).toBe(200);

    let answered = 0;
    let created = 0;
    const lost: string[] = [];
    const lastAnswers: Answer[] = [];
    // Each client sends back to back on one keep-alive socket until an answer closes it.
    const client = async (n: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      cleanups.push(() => agent.destroy());
      for (let i = 0; ; i++) {
        let answer: Answer;
        try {
          answer = i % 2 === 0 ? await send(agent, port, '/api/newsletter', signup({ email: `c${n}-${i}@example.com` })) : await send(agent, port, '/healthz');
        } catch (error) {
          const failure = error as NodeJS.ErrnoException & { reused?: boolean };
          // A refused fresh connection never reached the server; anything else is a request cut off.
          if (failure.code !== 'ECONNREFUSED' || failure.reused) lost.push(`client ${n} request ${i}: ${failure.code ?? failure.message}`);
          return;
        }
        answered++;
        if (answer.status === 201) created++;
        else if (i % 2 === 0) lost.push(`client ${n} request ${i}: status ${answer.status} ${answer.body}`);
        if (answer.connection === 'close') {
          lastAnswers.push(answer);
          return;
        }
      }
    };
    const clients = Array.from({ length: 12 }, (_, n) => client(n));
    await eventually(() => answered >= 100);
    const stopped = service.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const midDrain = await send(idleAgent, port, '/readyz').catch((error: Error) => ({ status: 0, connection: undefined, body: String(error) }));
    await Promise.all(clients);
    await stopped;

    expect(lost).toEqual([]);
    expect(midDrain.status).toBe(503);
    expect(midDrain.connection).toBe('close');
    expect(lastAnswers).toHaveLength(12);
    const db = openSqlite(join(temp.dir, 'ingest.sqlite'));
    cleanups.push(() => db.close());
    expect(count(db, 'newsletter')).toBe(created);
  });
});
