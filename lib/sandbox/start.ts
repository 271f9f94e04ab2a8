import type { Dispatcher } from 'undici';
import type { Capability } from '../../rules/index.js';
import { newDispatcher } from '../client/dispatcher.js';
import { HttpClient } from '../client/http-client.js';
import type { Key } from '../client/types.js';
import { HttpControlClient } from '../control/control-client.js';
import { startEmbeddedReference } from '../prepare/embedded-reference.js';
import { HarnessError } from '../violations/harness-error.js';
import type { SandboxControl } from './control.js';
import { Director } from './director.js';
import { API_BASE } from './exchange.js';
import { isRecord, jsonOf } from './facts.js';
import { SituationLayer } from './layer.js';
import { planOf, type SituationChoice } from './plan.js';

export interface SandboxOptions {
  /** Another sandbox's origin; none: the bundled reference, started here. */
  target?: string;
  /** That sandbox's control API (target contract, section 3). */
  controlUrl?: string;
  controlToken?: string;
  timeoutMs: number;
  choice: SituationChoice;
  /** The Retry-After of the situations' 429s and 503s (seconds). */
  retryAfterSeconds: number;
}

/** A sandbox ready for a client: the layer's origin to give it, and the fresh key it gets. */
export interface Sandbox {
  /** Where the client is pointed (TARGET_BASE_URL): the layer in front of the sandbox. */
  origin: string;
  /** The sandbox itself. */
  target: string;
  embedded: boolean;
  controlUrl: string;
  controlToken: string;
  features: Capability[];
  /** The client's test key: all four scopes, in an account of its own. */
  key: Key;
  /** Every key made here (the client's and the layer's own), for redaction. */
  keys: Key[];
  layer: SituationLayer;
  director: Director;
  /** Stops the layer (answering what it took), ends any situation in force, stops the sandbox. */
  close(): Promise<void>;
}

/** The features client mode cannot do without: a fresh account and its key. */
const REQUIRED: Capability[] = ['accounts', 'keys'];
const DEFAULT_DOCS_URL = 'https://docs.example.com';

/**
 * Starts what a client is graded against: the sandbox (the bundled
 * reference on a free loopback port, or the target given), a fresh test
 * account with its products and a test key through the control API, and the
 * situation-playing layer in front of it. Anything that fails here is a
 * HarnessError: the grading could not start, and nothing of the client ran.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const embedded = options.target === undefined;
  const reference = embedded ? await startEmbeddedReference() : undefined;
  const target = reference?.origin ?? (options.target as string);
  const controlUrl = reference?.controlUrl ?? options.controlUrl;
  const controlToken = reference?.controlToken ?? options.controlToken;
  let dispatcher: Dispatcher | undefined;
  try {
    if (!controlUrl || !controlToken)
      throw new HarnessError('HARNESS_CONFIG', 'client mode needs the control API of the sandbox');
    dispatcher = newDispatcher({ origins: { control: controlUrl } });
    const http = new HttpClient({ dispatcher, timeoutMs: options.timeoutMs });
    const quiet = { record: () => 0 };
    let features = new Set<Capability>();
    const client = new HttpControlClient(
      (req) => http.send(req, quiet, { setUp: true }),
      { controlUrl, controlToken },
      (capability) => {
        if (!features.has(capability))
          throw new HarnessError(
            'HARNESS_CONTROL',
            `the control API lacks the feature ${capability}`,
          );
      },
    );
    features = new Set((await client.capabilities()).features as Capability[]);
    const missing = REQUIRED.filter((feature) => !features.has(feature));
    if (missing.length > 0) {
      throw new HarnessError(
        'HARNESS_CONTROL',
        `the control API at ${controlUrl} lacks ${missing.join(' and ')}: client mode makes a fresh account and key`,
      );
    }
    const account = await client.createAccount({});
    const key = await client.createKey(account.id, { mode: 'test' });
    const ownKey = await client.createKey(account.id, { mode: 'test' });
    const control: SandboxControl = { accountId: account.id, features, client, ownKey };
    const layer = new SituationLayer({ target, timeoutMs: options.timeoutMs });
    const director = new Director({
      plays: planOf(options.choice),
      reworded: options.choice.reworded,
      control,
      forward: layer.forward,
      own: layer.own,
      docsUrl: await docsUrlOf(layer),
      retryAfterSeconds: options.retryAfterSeconds,
    });
    const origin = await layer.listen(director);
    return {
      origin,
      target,
      embedded,
      controlUrl,
      controlToken,
      features: [...features],
      key,
      keys: [key, ownKey],
      layer,
      director,
      async close() {
        await layer.close();
        await director.finish();
        if (!embedded) {
          for (const made of [key, ownKey]) await client.revokeKey(made).catch(() => undefined);
        }
        await dispatcher?.destroy().catch(() => undefined);
        await reference?.close();
      },
    };
  } catch (error) {
    await dispatcher?.destroy().catch(() => undefined);
    await reference?.close();
    throw error;
  }
}

/**
 * `{docs_url}` as the sandbox writes problem types (section 2): from one
 * unauthenticated request's 401, so the 429s the layer answers itself look
 * like the sandbox's own.
 */
async function docsUrlOf(layer: SituationLayer): Promise<string> {
  try {
    const answer = await layer.own({ method: 'GET', path: `${API_BASE}/account`, headers: {} });
    const body = jsonOf(answer.body);
    const type = isRecord(body) && typeof body.type === 'string' ? body.type : '';
    const at = type.indexOf('/errors#');
    return at > 0 ? type.slice(0, at) : DEFAULT_DOCS_URL;
  } catch {
    return DEFAULT_DOCS_URL;
  }
}
