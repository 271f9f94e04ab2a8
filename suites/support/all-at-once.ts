/**
 * Runs `work` for every item at once, for requests that do not depend on
 * each other, and answers the results in the items' order, so a check judges
 * them in a fixed order whatever order the answers came in. Every one has
 * ended before the first failure is thrown: no request outlives its check.
 */
export async function allAtOnce<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const settled = await Promise.allSettled(items.map((item, index) => work(item, index)));
  const failed = settled.find((one) => one.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((one) => (one as PromiseFulfilledResult<R>).value);
}
