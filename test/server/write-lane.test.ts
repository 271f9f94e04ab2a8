import { expect, it } from 'vitest';
import { WriteLane } from '../../server/store/write-lane.js';

/** A tick of the event loop: every queued continuation has run (no timers). */
const tick = () => new Promise((resolve) => setImmediate(resolve));

it("the lane's holder runs its own lane calls at once; anyone else's wait until it is done", async () => {
  const lane = new WriteLane();
  const order: string[] = [];
  let release: () => void = () => undefined;
  const holding = lane.exclusive(async () => {
    order.push('holder starts');
    // Its own call, after an await: still the holder, so it runs now (no deadlock).
    await lane.exclusive(() => order.push('holder inner'));
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    order.push('holder ends');
  });
  await tick();
  // Another request's write while the holder waits: it must not run inside the holder's work.
  const other = lane.exclusive(() => order.push('other'));
  await tick();
  expect(order).toEqual(['holder starts', 'holder inner']);
  expect(lane.held).toBe(false);
  release();
  await Promise.all([holding, other]);
  expect(order).toEqual(['holder starts', 'holder inner', 'holder ends', 'other']);
});

it('an idle lane is held by nobody, and holds again for the next work (context tracking off while idle)', async () => {
  const lane = new WriteLane();
  await lane.exclusive(() => undefined);
  await tick();
  expect(lane.held).toBe(false);
  const seen = await lane.exclusive(async () => {
    await tick();
    return lane.held;
  });
  expect(seen).toBe(true);
  await tick();
  expect(lane.held).toBe(false);
});
