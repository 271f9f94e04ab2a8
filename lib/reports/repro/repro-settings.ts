import { type Dialect, DOCUMENT_PATHS } from '../../target/dialect.js';
import type { CleanupPaths } from './plan-types.js';

/**
 * What a reproduction needs to know of the run beyond its steps: where the
 * target and control API were, and where the API keeps what a replay makes
 * and removes again (orders cancelled, webhook endpoints deleted).
 */
export interface ReproSettings {
  target: string;
  /** The run tested the bundled reference: its port closed with the run. */
  embedded?: boolean;
  controlUrl?: string;
  mode: 'control' | 'partner';
  paths: CleanupPaths;
}

export function reproSettings(
  target: {
    origin: string;
    apiBaseUrl: string;
    controlUrl?: string | undefined;
    embedded?: boolean;
  },
  dialect: Dialect,
  partner: boolean,
): ReproSettings {
  const base = new URL(target.apiBaseUrl).pathname.replace(/\/$/, '');
  return {
    target: target.origin,
    ...(target.embedded ? { embedded: true } : {}),
    ...(target.controlUrl ? { controlUrl: target.controlUrl } : {}),
    mode: partner ? 'partner' : 'control',
    paths: {
      orders: {
        path: base + DOCUMENT_PATHS.orders,
        cancel: base + DOCUMENT_PATHS.orderCancel,
        idPointer: dialect.answers.order.id,
      },
      webhooks: {
        path: base + DOCUMENT_PATHS.webhookEndpoints,
        create: dialect.operations.webhookEndpointCreate.method,
        item: base + dialect.paths.webhookEndpoint,
        remove: dialect.operations.webhookEndpointDelete.method,
        idPointer: dialect.answers.webhookEndpoint.id,
      },
    },
  };
}
