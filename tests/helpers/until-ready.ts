import { readFileSync } from 'node:fs';

/**
 * Polls `url` (a service's `/readyz`) until it answers 200, or throws after `timeoutMs`, with the
 * end of the service's log when `logFile` is given.
 */
export async function untilReady(url: string, timeoutMs: number, logFile?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const tail = logFile === undefined ? '' : `:\n${readFileSync(logFile, 'utf8').slice(-3000)}`;
      throw new Error(`${url} not ready after ${timeoutMs} ms${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
