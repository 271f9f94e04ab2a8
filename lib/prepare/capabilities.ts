import { z } from 'zod';
import { CAPABILITIES, type Capability } from '../../rules/index.js';
import { type HttpClient, OVER_CAP_WORDS } from '../client/http-client.js';
import { ConfigError } from '../config/config-error.js';
import { readJsonText, tooDeepWords } from '../evidence/json-text.js';
import { PROBE_TIMEOUT_MS, sendOrAbort } from './probe-target.js';
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
  http: HttpClient,
  controlUrl: string,
  token: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Announced> {
  const response = await sendOrAbort(
    http,
    {
      method: 'GET',
      url: `${controlUrl.replace(/\/$/, '')}/capabilities`,
      headers: { 'x-control-token': token, accept: 'application/json' },
      channel: 'control',
    },
    `control API ${controlUrl}`,
    timeoutMs,
  );
  const status = response.status;
  if (status === 401 || status === 403) {
    throw new ConfigError('CONTROL_TOKEN', `the control API refused the token (HTTP ${status})`);
  }
  if (status !== 200) {
    throw new RunAborted(
      `control API ${controlUrl}: GET /capabilities answered HTTP ${status}, expected 200`,
    );
  }
  const read = response.over ? undefined : readJsonText(response.text);
  const parsed = CapabilitiesSchema.safeParse(read?.kind === 'json' ? read.value : undefined);
  if (!parsed.success) {
    const why = response.over
      ? `: ${OVER_CAP_WORDS}`
      : read?.kind === 'too_deep'
        ? `: ${tooDeepWords(read.depth)}`
        : '';
    throw new RunAborted(
      `control API ${controlUrl}: GET /capabilities did not answer {"protocol", "features": [...]} (target contract, section 3)${why}`,
    );
  }
  const known = new Set<string>(CAPABILITIES.filter((c) => c !== 'live_orders'));
  return {
    protocol: parsed.data.protocol,
    features: CAPABILITIES.filter((c) => known.has(c) && parsed.data.features.includes(c)),
    unknown: parsed.data.features.filter((f) => !known.has(f)),
  };
}
