/**
 * Assertions for invariants that cannot break if the code is right. They stay on in production:
 * a broken invariant ends the process rather than corrupting data.
 */
export class AssertionError extends Error {
  override readonly name = "AssertionError";
}

/** Throws an AssertionError with `message` when `condition` is false. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/** Marks the end of an exhaustive switch over a union; reaching it is a bug. */
export function assertNever(value: never, what = "value"): never {
  throw new AssertionError(`unexpected ${what}: ${JSON.stringify(value)}`);
}
