import type { Key } from '../client/types.js';

/** The control protocol's shapes (target contract, section 3), below the check layer. */

/** Account settings of the control protocol (target contract, section 3). */
export interface AccountSettings {
  test_mode?: boolean;
  live_access?: boolean;
  suspended?: boolean;
  incomplete?: boolean;
  service?: 'normal' | 'read_only' | 'unavailable';
  billing?: {
    method: 'invoice' | 'card';
    card?: 'valid' | 'missing' | 'declined' | 'authentication_required' | 'failing';
    decline_code?: string;
  };
  limits?: { max_order_value?: number; max_orders_per_day?: number };
  products?: Product[];
}

export interface Product {
  sku: string;
  name: string;
  unit_price: number;
  min_quantity: number;
  ships_by_freight: boolean;
}

export interface TestAccount {
  id: string;
  settings: AccountSettings & { id: string };
}

export interface KeyOptions {
  mode?: 'test' | 'live';
  scopes?: string[];
  ip_allowlist?: string[];
  /** The account to make it in; default: the file's own account. */
  account?: TestAccount;
}

/** The control protocol (target contract, section 3); each call `need`s its feature. */
export interface ControlClient {
  capabilities(): Promise<{ protocol: string; features: string[] }>;
  whoami(): Promise<{ ip: string }>;
  createAccount(settings?: AccountSettings): Promise<TestAccount>;
  updateAccount(id: string, settings: AccountSettings): Promise<TestAccount>;
  getAccount(id: string): Promise<TestAccount>;
  createKey(accountId: string, options?: Omit<KeyOptions, 'account'>): Promise<Key>;
  rollKey(key: Key): Promise<Key>;
  revokeKey(key: Pick<Key, 'accessKeyId'>): Promise<void>;
  endProbation(key: Key): Promise<void>;
  /** Moves the account's clock; answers the account's new `now`. */
  advanceClock(accountId: string, seconds: number): Promise<string>;
  startProduction(accountId: string, orderId: string): Promise<void>;
  ship(accountId: string, orderId: string): Promise<void>;
  injectFault(accountId: string, fault: FaultSpec): Promise<void>;
  /** Every charge made to the account's card, both modes, oldest first (feature `charges`). */
  charges(accountId: string): Promise<Charge[]>;
}

/**
 * One charge to an account's card, as the control protocol addition `charges`
 * shows it (`GET /accounts/{id}/charges`, docs/contract-additions.md): money in
 * integer cents; `order_id` null when no order was stored for it.
 */
export interface Charge {
  id: string;
  order_id: string | null;
  external_id: string;
  mode: 'test' | 'live';
  amount: number;
  currency: string;
  created_at: string;
}

/** A fault of the control protocol: the next `times` matching requests answer 500 (contract section 3). */
export interface FaultSpec {
  method: string;
  path: string;
  status?: 500;
  when: 'before_commit' | 'after_commit';
  times?: number;
}
