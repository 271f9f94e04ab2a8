import { Agent, request } from 'undici';
import { z } from 'zod';
import { CAPABILITIES, type Capability } from '../../rules/index.js';
import { ConfigError } from '../config/config-error.js';
import { networkCause } from './network-cause.js';
import { PROBE_TIMEOUT_MS } from './probe-target.js';
import { RunAborted } from './run-aborted.js';

const CapabilitiesSchema = z.object({ protocol: z.string(), features: z.array(z.string()) });

export interface Announced {
  protocol: string;
  /** Features the suite knows, in the catalogue's order. */
  features: Capability[];
  /** Features the target announced that this suite version does not use. */
  unknown: string[];
}

/**
 * `GET {control}/capabilities` (target contract, section 3) decides what
 * the run can verify. A control API that is configured but refuses or
 * does not speak the protocol stops the run (exit 2): running on would mark
 * half the rules not_verifiable for a reason the user can fix in a second.
 */
export async function fetchCapabilities(
  controlUrl: string,
  token: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Announced> {
  const agent = new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let status: number;
  let text: string;
  try {
    const response = await request(`${controlUrl}/capabilities`, {
      method: 'GET',
      headers: { 'x-control-token': token, accept: 'application/json' },
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new RunAborted(
      `control API ${controlUrl} is unreachable: ${networkCause(error, timeoutMs)}`,
    );
  } finally {
    await agent.destroy().catch(() => undefined);
  }
  if (status === 401 || status === 403) {
    throw new ConfigError('CONTROL_TOKEN', `the control API refused the token (HTTP ${status})`);
  }
  if (status !== 200) {
    throw new RunAborted(
      `control API ${controlUrl}: GET /capabilities answered HTTP ${status}, expected 200`,
    );
  }
  let parsed: z.ZodSafeParseResult<z.output<typeof CapabilitiesSchema>>;
  try {
    parsed = CapabilitiesSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = CapabilitiesSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    throw new RunAborted(
      `control API ${controlUrl}: GET /capabilities did not answer {"protocol", "features": [...]} (target contract, section 3)`,
    );
  }
  const known = new Set<string>(CAPABILITIES.filter((c) => c !== 'live_orders'));
  return {
    protocol: parsed.data.protocol,
    features: CAPABILITIES.filter((c) => known.has(c) && parsed.data.features.includes(c)),
    unknown: parsed.data.features.filter((f) => !known.has(f)),
  };
}
