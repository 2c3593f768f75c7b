/**
 * Group commit: concurrent writes share one transaction, so the disk sync that makes a commit
 * durable is paid once per batch instead of once per request.
 *
 * Each request submits a synchronous job and awaits its promise; the batch runs when `maxBatch`
 * jobs are waiting or `maxDelayMs` after the first one arrived, and every promise settles only
 * after the batch has committed. Each job runs in its own savepoint, so a job that throws (a
 * constraint it did not expect, say) rolls back alone and only its own request fails; if the
 * commit itself fails, every job of the batch fails and nothing of it is stored.
 */

/** How batches are cut; `maxDelayMs: 0` flushes after the current round of I/O callbacks. */
export interface GroupCommitOptions {
  maxBatch: number;
  maxDelayMs: number;
}

/** The defaults: a batch every 2 ms, at most 256 rows. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxBatch: 256, maxDelayMs: 2 };

/** What the database offers the batcher: run `fn` in one transaction, and `fn`'s parts each in a nested savepoint. */
export interface Transactor {
  transaction<T>(fn: () => T): T;
}

interface Pending {
  job: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Batches synchronous write jobs into shared transactions; see the module comment. */
export class GroupCommit {
  readonly #db: Transactor;
  readonly #options: GroupCommitOptions;
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  #closed = false;
  /** How many batches have committed, and how many jobs they held (for tests and the bench). */
  readonly stats = { batches: 0, jobs: 0 };

  constructor(db: Transactor, options: GroupCommitOptions = DEFAULT_GROUP_COMMIT) {
    this.#db = db;
    this.#options = options;
  }

  /** Queues `job` for the next batch; resolves with its result once that batch is committed. */
  submit<T>(job: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('group commit is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      if (this.#queue.length >= this.#options.maxBatch) this.flush();
      else if (this.#timer === undefined) this.#schedule();
    });
  }

  /** Runs everything queued now, in one transaction. */
  flush(): void {
    this.#cancelTimer();
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.#db.transaction(() => batch.map((pending) => this.#runInSavepoint(pending.job)));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.stats.batches += 1;
    this.stats.jobs += batch.length;
    outcomes.forEach((outcome, index) => {
      const pending = batch[index]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** Commits what is queued and refuses new jobs. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  #runInSavepoint(job: () => unknown): Outcome {
    try {
      return { ok: true, value: this.#db.transaction(job) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  #schedule(): void {
    const run = () => {
      this.#timer = undefined;
      this.flush();
    };
    this.#timer = this.#options.maxDelayMs > 0 ? setTimeout(run, this.#options.maxDelayMs) : setImmediate(run);
  }

  #cancelTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer as NodeJS.Timeout);
    clearImmediate(this.#timer as NodeJS.Immediate);
    this.#timer = undefined;
  }
}
