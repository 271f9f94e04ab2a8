import { randomUUID } from 'node:crypto';
import type { RunConfig } from '../target/run-config.js';
import { serveThreadChannel, ThreadChannel } from './thread-channel.js';

/**
 * How the check files' workers get the RunConfig: over a channel of the
 * run's own (its name is what vitest `provide`s, under RUN_CHANNEL_KEY), not
 * through `provide` itself. vitest hands a worker its provided values as it
 * starts the worker, and the workers start (vitest's runtime, the engine, the
 * packages: most of a run's start-up) while the CLI still prepares and probes
 * a target elsewhere; each asks for the RunConfig that those complete, and
 * waits, before its first check file (lib/runner/run-config-gate.ts). A name
 * per run: two runs in one process never hear each other.
 */
export const RUN_CHANNEL_KEY = 'conformance:run-channel';

/**
 * What vitest `provide`s under RUN_CHANNEL_KEY: the channel's name, and
 * whether the workers start before the RunConfig is known (a target elsewhere
 * being prepared): only then is there a wait worth loading the engine in.
 */
export interface RunChannel {
  name: string;
  early: boolean;
}

/** What a run's workers receive: the run's one RunConfig, or one per folder of check files (a run against several targets). */
export type RunConfigs = { one: RunConfig } | { byFolder: Record<string, RunConfig> };

type Answer = { configs: RunConfigs } | { calledOff: string };

export interface RunConfigServer {
  /** The channel's name: `provide` it under RUN_CHANNEL_KEY. */
  readonly name: string;
  close(): void;
}

/** A name for a run's channel, its own. */
export function newRunChannelName(): string {
  return `partner-ordering-conformance:run:${randomUUID()}`;
}

/**
 * The main thread's side: each worker that asks is answered once `configs`
 * settles. A rejection calls the checks off: the waiting workers end their
 * files at once with its message.
 */
export function serveRunConfigs(
  configs: Promise<RunConfigs>,
  name = newRunChannelName(),
): RunConfigServer {
  const answer: Promise<Answer> = configs.then(
    (settled) => ({ configs: settled }),
    (error: unknown) => ({ calledOff: error instanceof Error ? error.message : String(error) }),
  );
  const served = serveThreadChannel(name, { ask: () => answer });
  return { name, close: served.close };
}

/** Where a worker keeps what it received: globalThis, since the engine's modules are evaluated afresh per file. */
const RECEIVED = Symbol.for('partner-ordering-conformance:run-configs');
type Holder = { [RECEIVED]?: RunConfigs };

/** The RunConfigs this worker received; undefined before (or outside a run). */
export function receivedRunConfigs(): RunConfigs | undefined {
  return (globalThis as Holder)[RECEIVED];
}

/** A worker's side: asks on the run's channel and waits for the answer; rejects if the run was called off. */
export async function receiveRunConfigs(name: string): Promise<RunConfigs> {
  const known = receivedRunConfigs();
  if (known) return known;
  const channel = new ThreadChannel(name);
  const answer = await channel.ask<Answer>('run config').finally(() => channel.close());
  if (answer && 'calledOff' in answer)
    throw new Error(`the run was called off: ${answer.calledOff}`);
  if (!answer || !('configs' in answer)) throw new Error('no run configuration on the run channel');
  (globalThis as Holder)[RECEIVED] = answer.configs;
  return answer.configs;
}
