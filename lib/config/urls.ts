import { API_BASE_PATH } from '../target/dialect.js';
import { ConfigError, quote } from './config-error.js';

/**
 * A base URL from the user: http(s), no credentials (they would end up in
 * reports), no query or fragment. Trailing slashes go. Never echoes a URL
 * that holds credentials.
 */
function baseUrl(value: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      setting,
      `${quote(value)} is not a URL (e.g. https://sandbox.example.com)`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError(
      setting,
      'must not hold credentials (user:password@); use the environment',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(setting, `must be an http or https URL, got ${quote(url.protocol)}`);
  }
  if (url.search || url.hash) throw new ConfigError(setting, 'must have no query or fragment');
  return url;
}

/**
 * The target's origin as RunConfig wants it. A path prefix (a gateway
 * mount) is kept; the API base path, if the user included it, is taken off
 * since the suite adds it (target contract, section 4).
 */
export function targetOrigin(value: string, setting: string): string {
  const url = baseUrl(value, setting);
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_BASE_PATH)) path = path.slice(0, -API_BASE_PATH.length);
  return `${url.origin}${path}`;
}

export function controlBase(value: string, setting: string): string {
  const url = baseUrl(value, setting);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
