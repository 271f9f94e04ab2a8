import type { Capability } from '../../rules/index.js';
import type { Key } from '../client/types.js';
import type { ControlClient } from '../control/types.js';

/**
 * What the layer may ask of the target's control API (target contract,
 * section 3) to play a situation: the account the client's key lives in,
 * the features the target announced, and a key of the layer's own in the
 * same account (the duplicate situation places an order with it).
 */
export interface SandboxControl {
  accountId: string;
  features: ReadonlySet<Capability>;
  client: ControlClient;
  ownKey?: Key;
}

/** The features of `needs` the control API lacks (all of them without a control API). */
export function lacking(
  control: SandboxControl | undefined,
  needs: readonly Capability[],
): Capability[] {
  if (!control) return [...needs];
  return needs.filter((need) => !control.features.has(need));
}
