// The end of a replay: what it made is removed again, each with the credential that made it.
import { send } from './http.mjs';

/**
 * Removes what the replay made, each with the credential that made it: service states put
 * back, orders cancelled and webhook endpoints deleted (a new token from the step that gave the
 * old one, when it expired), then keys revoked. Accounts stay (the control protocol closes
 * none); with their keys revoked nothing can use them. Every failure here is reported, never fatal.
 */
export async function removeMade(REPRO, options, made, steps, requestOf, say) {
  const failed = [];
  const attempt = async (what, req) => {
    try {
      const answer = await send(req);
      if (answer.status >= 300) failed.push(`${what}: HTTP ${answer.status}`);
      return answer;
    } catch (error) {
      failed.push(`${what}: ${error.code ?? error.message}`);
      return undefined;
    }
  };
  const withFreshToken = async (thing, req) => {
    const tokenStep =
      thing.step.tokenFrom === undefined ? undefined : steps.get(thing.step.tokenFrom);
    if (!tokenStep) return undefined;
    try {
      const answer = await send(requestOf(tokenStep));
      const token = answer.json?.access_token;
      if (typeof token !== 'string') return undefined;
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } };
    } catch {
      return undefined;
    }
  };
  const remove = async (what, thing, req) => {
    const answer = await attempt(what, req);
    if (answer?.status === 401) {
      failed.pop();
      const again = await withFreshToken(thing, req);
      if (again) await attempt(what, again);
      else failed.push(`${what}: HTTP 401`);
    }
  };
  const api = options.target;
  const orders = REPRO.paths.orders;
  const webhooks = REPRO.paths.webhooks;
  const credentialHeaders = (headers) => {
    const out = {};
    for (const [name, value] of Object.entries(headers)) {
      if (/^(authorization|x-control-token|accept)$/.test(name)) out[name] = value;
    }
    return out;
  };
  const controlHeaders = { 'x-control-token': options.controlToken ?? '' };
  // Service states first: a read-only account refuses the cancels.
  for (const url of made.services) {
    await attempt('service state back to normal', {
      url,
      method: 'PATCH',
      headers: { ...controlHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'normal', suspended: false, incomplete: false }),
    });
  }
  for (const order of made.orders) {
    await remove(`cancel order ${order.id}`, order, {
      url: api + orders.cancel.replace('{id}', encodeURIComponent(order.id)),
      method: 'POST',
      headers: credentialHeaders(order.headers),
    });
  }
  for (const endpoint of made.webhooks) {
    await remove(`delete webhook endpoint ${endpoint.id}`, endpoint, {
      url: api + webhooks.item.replace('{id}', encodeURIComponent(endpoint.id)),
      method: webhooks.remove,
      headers: credentialHeaders(endpoint.headers),
    });
  }
  for (const key of made.keys) {
    await attempt(`revoke key ${key}`, {
      url: `${options.control}/keys/${encodeURIComponent(key)}/revoke`,
      method: 'POST',
      headers: controlHeaders,
    });
  }
  // Refusals of what the target no longer allows (an order past its cancel window) are expected.
  const unexpected = failed.filter((f) => !/HTTP (409|404|410)$/.test(f));
  if (unexpected.length) say(`clean-up: could not ${unexpected.join('; ')}`);
}
