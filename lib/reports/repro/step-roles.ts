import type { TraceStep, TraceVar } from '../../evidence/trace.js';
import type { PlanStep } from './plan-types.js';
import type { ReproSettings } from './repro-settings.js';

/**
 * What each step is to people and to clean-up: the key it was sent with, by
 * a label ("key 1" for the first key the replay makes, "the partner key");
 * whether it places an order with a live key; what it makes that clean-up
 * removes; the step that gave its access token.
 */
export function stepRoles(
  steps: readonly TraceStep[],
  vars: Record<string, TraceVar>,
  settings: ReproSettings,
  controlPath: string,
): Map<number, Pick<PlanStep, 'key' | 'live' | 'makes' | 'tokenFrom'>> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const labels = new Map<number, string>();
  const liveKeys = new Set<number>();
  for (const step of steps) {
    if (step.channel !== 'control' || step.method !== 'POST') continue;
    if (!/\/accounts\/[^/]+\/keys$/.test(pathOf(step.url))) continue;
    labels.set(step.id, `key ${labels.size + 1}`);
    if (bodyMode(step.body) === 'live') liveKeys.add(step.id);
  }
  /** The step that made the key a variable names (its access key id or secret), or the partner's. */
  const keyStep = (name: string | undefined): number | 'partner' | undefined => {
    const def = name === undefined ? undefined : vars[name];
    if (def?.kind === 'env' && def.name.startsWith('PARTNER_')) return 'partner';
    return def?.kind === 'answer' && labels.has(def.step) ? def.step : undefined;
  };
  const tokenOf = (step: TraceStep): number | undefined => {
    const bearer = /^bearer\s+\{\{(v\d+)\}\}$/i.exec(step.headers.authorization ?? '')?.[1];
    const def = bearer === undefined ? undefined : vars[bearer];
    return def?.kind === 'answer' ? def.step : undefined;
  };
  const keyOf = (step: TraceStep, depth = 0): number | 'partner' | undefined => {
    const basic = /^\{\{(v\d+)\}\}:/.exec(step.basic ?? '')?.[1];
    if (basic) return keyStep(basic);
    const from = tokenOf(step);
    const token = from === undefined ? undefined : byId.get(from);
    return token && depth < 2 ? keyOf(token, depth + 1) : undefined;
  };
  const out = new Map<number, Pick<PlanStep, 'key' | 'live' | 'makes' | 'tokenFrom'>>();
  const { orders, webhooks } = settings.paths;
  for (const step of steps) {
    const key = step.channel === 'api' ? keyOf(step) : undefined;
    const path = pathOf(step.url);
    const relative = step.channel === 'control' ? path.slice(controlPath.length) : path;
    const makes: PlanStep['makes'] =
      step.channel === 'control'
        ? step.method === 'POST' && relative === '/accounts'
          ? 'account'
          : labels.has(step.id)
            ? 'key'
            : step.method === 'PATCH' && /"(service|suspended|incomplete)"/.test(step.body ?? '')
              ? 'service'
              : undefined
        : step.method === 'POST' && path === orders.path
          ? 'order'
          : path === webhooks.path && step.method === webhooks.create
            ? 'webhook'
            : undefined;
    const tokenFrom = tokenOf(step);
    out.set(step.id, {
      ...(key === 'partner'
        ? { key: 'the partner key' }
        : key !== undefined
          ? { key: labels.get(key) as string }
          : {}),
      ...(makes === 'order' && typeof key === 'number' && liveKeys.has(key)
        ? { live: true as const }
        : {}),
      ...(makes ? { makes } : {}),
      ...(tokenFrom === undefined ? {} : { tokenFrom }),
    });
  }
  return out;
}

function pathOf(url: string): string {
  return url.split('?')[0] ?? url;
}

/** The `mode` a key's creation asks for (`{"mode": "live"}`), if any. */
function bodyMode(body: string | undefined): unknown {
  try {
    return (JSON.parse(body ?? '') as { mode?: unknown } | null)?.mode;
  } catch {
    return undefined;
  }
}
