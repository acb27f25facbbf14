/**
 * Runs asynchronous work over a list with at most a given number of items in flight, as Kafka
 * loads a dir's logs on `num.recovery.threads.per.data.dir` threads.
 */
import { assert } from "../../common/index.js";

/**
 * Calls `worker` on every item, at most `concurrency` at a time, and resolves to the results in
 * item order once all have settled. The first failure (in item order) is rethrown after every
 * worker has settled, so that no work is left running behind the caller's back.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T) => Promise<R>,
): Promise<R[]> {
  assert(Number.isInteger(concurrency), "the concurrency is an integer");
  assert(concurrency >= 1, "the concurrency is at least 1");
  const outcomes: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        outcomes[index] = { status: "fulfilled", value: await worker(items[index] as T) };
      } catch (reason) {
        outcomes[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return outcomes.map((outcome) => {
    if (outcome.status === "rejected") throw outcome.reason;
    return outcome.value;
  });
}
