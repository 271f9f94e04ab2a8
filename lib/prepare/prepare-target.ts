import { activeRules, type Capability } from '../../rules/index.js';
import { newDispatcher } from '../client/dispatcher.js';
import { HttpClient } from '../client/http-client.js';
import { isSelected } from '../config/only.js';
import type { Settings } from '../config/settings.js';
import type { TargetInfo } from '../reports/report-model.js';
import { API_BASE_PATH, DOCUMENT_PATHS } from '../target/dialect.js';
import type { RunConfig } from '../target/run-config.js';
import { fetchCapabilities } from './capabilities.js';
import { type EmbeddedReference, startEmbeddedReference } from './embedded-reference.js';
import { predictUnverified } from './predict-unverified.js';
import { preflightPartnerKey, requireThisApi } from './preflight.js';
import { PROBE_TIMEOUT_MS, probeTarget } from './probe-target.js';
import { RunAborted } from './run-aborted.js';

export interface PreparedTarget {
  runConfig: RunConfig;
  targetInfo: TargetInfo;
  /** What the user should know before the checks start (what cannot be verified, and why). */
  notices: string[];
  /** Stops the bundled reference, if one was started. Never throws. */
  close(): Promise<void>;
}

/**
 * Decides what the run tests and with what: the bundled reference (started
 * here) or the user's target (probed first, so an unreachable one ends the
 * run at once), and the capabilities its control API announces.
 */
export async function prepareTarget(settings: Settings): Promise<PreparedTarget> {
  let embedded: EmbeddedReference | undefined;
  if (!settings.target) {
    try {
      embedded = await startEmbeddedReference();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new RunAborted(`the bundled reference server did not start: ${message}`);
    }
  }
  const close = async () => {
    await embedded?.close().catch(() => undefined);
  };
  const origin = embedded?.origin ?? (settings.target as string);
  const controlUrl = embedded?.controlUrl ?? settings.controlUrl;
  // The probe answers within the request timeout, and never later than PROBE_TIMEOUT_MS.
  const probeMs = Math.min(PROBE_TIMEOUT_MS, settings.requestTimeoutMs);
  // The requests before the run (probe, pre-flight, capabilities) share one dispatcher, closed after them.
  const dispatcher = newDispatcher({
    origins: { api: origin, control: controlUrl },
    connectTimeoutMs: probeMs,
  });
  const http = new HttpClient({ dispatcher, timeoutMs: probeMs });
  try {
    const controlToken = embedded?.controlToken ?? settings.controlToken;
    const apiBaseUrl = `${origin}${API_BASE_PATH}`;
    const probe = await probeTarget(
      http,
      `${apiBaseUrl}${DOCUMENT_PATHS.account}`,
      'target',
      probeMs,
    );
    // Before any check: the target is this API, and each credential works, so that a wrong URL or
    // key is the user's mistake named once, never the target's failures.
    requireThisApi(probe);

    const notices: string[] = [...settings.notices];
    let partnerPreflightAt: number | undefined;
    let partnerScopes: string[] | undefined;
    if (settings.partnerKey) {
      const { notice, scopes } = await preflightPartnerKey(http, {
        tokenUrl: `${apiBaseUrl}${DOCUMENT_PATHS.token}`,
        ...settings.partnerKey,
        timeoutMs: probeMs,
      });
      partnerPreflightAt = Date.now();
      partnerScopes = scopes;
      if (notice) notices.push(notice);
    }
    let capabilities: Capability[] = [];
    if (controlUrl && controlToken) {
      const announced = await fetchCapabilities(http, controlUrl, controlToken, probeMs);
      capabilities = announced.features;
      if (announced.protocol !== '1') {
        notices.push(
          `control protocol "${announced.protocol}" announced; this suite speaks version 1`,
        );
      }
      if (announced.unknown.length) {
        notices.push(`control features this suite does not use: ${announced.unknown.join(', ')}`);
      }
    }
    // The bundled reference places nothing real: its live orders need no consent.
    if (settings.allowLiveOrders || embedded) capabilities = [...capabilities, 'live_orders'];
    notices.push(...capabilityNotices(settings, capabilities, Boolean(controlUrl), partnerScopes));

    const runConfig: RunConfig = {
      origin,
      apiBaseUrl,
      ...(controlUrl ? { controlUrl } : {}),
      ...(controlToken ? { controlToken } : {}),
      ...(settings.partnerKey ? { partnerKey: settings.partnerKey } : {}),
      ...(partnerPreflightAt !== undefined ? { partnerPreflightAt } : {}),
      capabilities,
      seed: settings.seed,
      numRuns: settings.numRuns,
      requestTimeoutMs: settings.requestTimeoutMs,
      dialect: settings.profile.dialect,
    };
    const partnerMode = settings.partnerKey?.accessKeyId.includes('_live_') ? 'live' : 'test';
    const targetInfo: TargetInfo = {
      api_base_url: apiBaseUrl,
      embedded_reference: Boolean(embedded),
      ...(settings.workflow?.targetName ? { target_name: settings.workflow.targetName } : {}),
      ...(controlUrl ? { control_url: controlUrl } : {}),
      profile: settings.profile.file ?? settings.profile.name,
      ...(settings.profile.file ? { profile_option: settings.profile.name } : {}),
      capabilities,
      ...(settings.partnerKey
        ? { partner_key: { access_key_id: settings.partnerKey.accessKeyId, mode: partnerMode } }
        : {}),
    };
    return { runConfig, targetInfo, notices, close };
  } catch (error) {
    await close();
    throw error;
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** The flag or setting that supplies what a prediction names (every hint names its fix). */
function fixOf(lacking: string, hasControl: boolean): string {
  if (lacking === 'live_orders')
    return '--allow-live-orders (CONFORMANCE_ALLOW_LIVE_ORDERS=true; live orders are real: never against production)';
  if (lacking === 'an API key')
    return 'PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY (a test key), or --control-url with CONTROL_TOKEN';
  if (lacking === 'a key lacking one of the four scopes')
    return 'a control API (--control-url, CONTROL_TOKEN) to make such a key';
  return hasControl
    ? `the target's control API announcing "${lacking}" (GET /capabilities)`
    : '--control-url with CONTROL_TOKEN';
}

/** Says plainly, before the run, what it will not be able to verify, and what would verify it. */
function capabilityNotices(
  settings: Settings,
  capabilities: readonly Capability[],
  hasControl: boolean,
  partnerScopes: string[] | undefined,
): string[] {
  const notices: string[] = [];
  if (!hasControl && !settings.partnerKey) {
    notices.push(
      'no control API and no partner key: only checks that send no key can run (set PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY, or --control-url with CONTROL_TOKEN)',
    );
  } else if (!hasControl) {
    notices.push(
      'no control API: checks that need accounts, keys, the clock or faults will be not_verifiable (--control-url with CONTROL_TOKEN supplies them)',
    );
  }
  if (settings.partnerKey?.accessKeyId.includes('_live_') && !settings.allowLiveOrders) {
    notices.push(
      'the partner key is a live key: no order will be placed (--allow-live-orders not given)',
    );
  }
  const selected = activeRules.filter((rule) => isSelected(settings.only, rule.id));
  const predicted = predictUnverified({
    rules: selected,
    capabilities,
    hasControl,
    ...(settings.partnerKey ? { partnerKey: partnerScopes ? { scopes: partnerScopes } : {} } : {}),
  });
  if (predicted.size > 0) {
    // One entry per fix: how many rules it would let the run verify, and what they lack.
    const byFix = new Map<string, { rules: number; lacking: Set<string> }>();
    for (const needs of predicted.values()) {
      for (const fix of new Set(needs.map((need) => fixOf(need, hasControl)))) {
        const entry = byFix.get(fix) ?? { rules: 0, lacking: new Set<string>() };
        entry.rules += 1;
        for (const need of needs) if (fixOf(need, hasControl) === fix) entry.lacking.add(need);
        byFix.set(fix, entry);
      }
    }
    const list = [...byFix]
      .sort((a, b) => b[1].rules - a[1].rules)
      .map(([fix, { rules, lacking }]) => `${rules} need ${[...lacking].join(', ')}: ${fix}`);
    notices.push(
      `${predicted.size} of ${selected.length} rules will end not_verifiable for what this run lacks (${list.join('; ')})`,
    );
  }
  return notices;
}
