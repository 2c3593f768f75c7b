/**
 * Callers that keep a store busy, as the service's routes do: `callers` of them each start the next
 * call as soon as their last one is done, until `total` have started. The calls are numbered on
 * across runs (a warm-up, then the measured run), so each run gets fresh addresses.
 *
 *   const run = concurrentCallers(50, (n) => store.subscribe(signupNumber(n)));
 *   await run(2_000); await run(30_000); // calls 0–1,999, then 2,000–31,999
 */
export function concurrentCallers(callers: number, call: (n: number) => Promise<unknown>): (total: number) => Promise<void> {
  let sequence = 0;
  return async (total) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (started < total) {
          started += 1;
          await call(sequence++);
        }
      }),
    );
  };
}
