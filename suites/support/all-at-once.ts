/**
 * Runs `work` for every item at once, for requests that do not depend on
 * each other, and answers the results in the items' order, so a check judges
 * them in a fixed order whatever order the answers came in. Every one has
 * ended before the first failure is thrown: no request outlives its check.
 */
export function allAtOnce<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  return together(...items.map((item, index) => work(item, index)));
}

/**
 * The same for a few different pieces of work already started:
 * `const [a, b] = await together(sendA(), sendB())`.
 */
export async function together<T extends unknown[]>(
  ...work: { [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((one) => one.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((one) => (one as PromiseFulfilledResult<unknown>).value) as T;
}
