import { type Dialect, DOCUMENT_PATHS } from '../../target/dialect.js';

/**
 * What a reproduction needs to know of the run beyond its steps: where the
 * target and control API were, and how orders are placed and cancelled
 * (a partner-mode replay cancels what it placed, as the run does).
 */
export interface ReproSettings {
  target: string;
  controlUrl?: string;
  mode: 'control' | 'partner';
  orders: { path: string; cancel: string; idPointer: string };
}

export function reproSettings(
  target: { origin: string; apiBaseUrl: string; controlUrl?: string | undefined },
  dialect: Dialect,
  partner: boolean,
): ReproSettings {
  const base = new URL(target.apiBaseUrl).pathname.replace(/\/$/, '');
  return {
    target: target.origin,
    ...(target.controlUrl ? { controlUrl: target.controlUrl } : {}),
    mode: partner ? 'partner' : 'control',
    orders: {
      path: base + DOCUMENT_PATHS.orders,
      cancel: base + DOCUMENT_PATHS.orderCancel,
      idPointer: dialect.answers.order.id,
    },
  };
}
