/**
 * `GET /metrics` on a real service: Prometheus text with submissions by form and status, request
 * latency, the outbox backlog and its oldest due row's age, and sends by kind and outcome.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { configFor, eventually, postJson, signup, tempDir } from '../fixtures.ts';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function metricsOf(running: RunningService): Promise<string> {
  const res = await running.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('GET /metrics', () => {
  it('counts submissions by form and status, times requests, and reports the outbox and its sends', async () => {
    const temp = tempDir();
    const running = await startService(configFor(temp.dir), { pollMs: 20, logStream: { write: () => {} } });
    cleanups.push(temp.remove, running.close);

    expect((await postJson(running.app, '/api/newsletter', signup({ email: 'a@example.com' }))).statusCode).toBe(201);
    expect((await postJson(running.app, '/api/newsletter', signup({ email: 'not-an-address' }))).statusCode).toBe(400);
    await eventually(async () => /ingest_mail_sends_total\{kind="newsletter_confirm",outcome="sent"\} 1/.test(await metricsOf(running)));

    const text = await metricsOf(running);
    expect(text).toContain('ingest_submissions_total{form="newsletter",status="201"} 1');
    expect(text).toContain('ingest_submissions_total{form="newsletter",status="400"} 1');
    expect(text).toMatch(/ingest_http_request_duration_seconds_count\{route="\/api\/newsletter",method="POST",status="201"\} 1/);
    expect(text).toContain('ingest_outbox_rows{status="sent"} 1');
    expect(text).toContain('ingest_outbox_rows{status="pending"} 0');
    expect(text).toContain('ingest_outbox_oldest_due_age_seconds 0');
    expect(text).toContain('ingest_database_errors_total 0');
    expect(text).toMatch(/^ingest_process_cpu_seconds_total /m);
  });
});
