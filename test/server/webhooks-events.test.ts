import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('webhook endpoints (§6, contract §2)', () => {
  it('creates (201), lists, reads and deletes (204)', async () => {
    const partner = await h.partner();
    const created = await h.api('POST', '/webhook-endpoints', {
      token: partner.token,
      body: { url: 'https://example.com/hooks', events: ['order.created'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^we_/),
      url: 'https://example.com/hooks',
      events: ['order.created'],
      livemode: false,
    });
    const id = created.body.id as string;
    expect((await h.api('GET', `/webhook-endpoints/${id}`, { token: partner.token })).body).toEqual(
      created.body,
    );
    expect((await h.api('GET', '/webhook-endpoints', { token: partner.token })).body).toEqual({
      data: [created.body],
      has_more: false,
    });
    const deleted = await h.api('DELETE', `/webhook-endpoints/${id}`, { token: partner.token });
    expect(deleted.status).toBe(204);
    expect(deleted.raw.body).toBe('');
    expectProblemShape(
      await h.api('GET', `/webhook-endpoints/${id}`, { token: partner.token }),
      'not_found',
      404,
    );
    expectProblemShape(
      await h.api('DELETE', `/webhook-endpoints/${id}`, { token: partner.token }),
      'not_found',
      404,
    );
  });

  it('at most 5 per mode: the sixth is 422 limit_exceeded; the other mode and deleted ones do not count', async () => {
    const partner = await h.partner({ live_access: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const reply = await h.api('POST', '/webhook-endpoints', {
        token: partner.token,
        body: { url: `https://example.com/${i}` },
      });
      expect(reply.status).toBe(201);
      ids.push(reply.body.id);
    }
    const sixth = await h.api('POST', '/webhook-endpoints', {
      token: partner.token,
      body: { url: 'https://example.com/6' },
    });
    expectProblemShape(sixth, 'limit_exceeded', 422);
    const live = await h.token(await h.key(partner.accountId, { mode: 'live' }));
    expect(
      (
        await h.api('POST', '/webhook-endpoints', {
          token: live,
          body: { url: 'https://example.com/live' },
        })
      ).status,
    ).toBe(201);
    await h.api('DELETE', `/webhook-endpoints/${ids[0]}`, { token: partner.token });
    expect(
      (
        await h.api('POST', '/webhook-endpoints', {
          token: partner.token,
          body: { url: 'https://example.com/7' },
        })
      ).status,
    ).toBe(201);
  });

  it('validates the body: url must be http(s), events known, no unknown fields', async () => {
    const partner = await h.partner();
    for (const [body, pointer] of [
      [{ url: 'ftp://example.com' }, '/url'],
      [{ url: 'not a url' }, '/url'],
      [{}, '/url'],
      [{ url: 'https://example.com', events: ['order.exploded'] }, '/events/0'],
      [{ url: 'https://example.com', secret: 'x' }, '/secret'],
    ] as const) {
      const reply = await h.api('POST', '/webhook-endpoints', {
        token: partner.token,
        body: body as never,
      });
      expect(expectProblemShape(reply, 'validation_failed', 422).errors[0].pointer).toBe(pointer);
    }
  });
});

describe('events (§6, contract §2)', () => {
  it('lists events newest first, reads one, filters by type, pages with starting_after', async () => {
    const partner = await h.partner();
    const a = await h.placeOrder(partner);
    const b = await h.placeOrder(partner);
    await h.api('POST', `/orders/${a.body.id}/cancel`, { token: partner.token });
    const all = await h.api('GET', '/events', { token: partner.token });
    expect(all.body.data.map((e: { type: string }) => e.type)).toEqual([
      'order.cancelled',
      'order.created',
      'order.created',
    ]);
    const event = all.body.data[2];
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      type: 'order.created',
      created_at: expect.any(String),
      livemode: false,
      data: { object: a.body },
    });
    expect((await h.api('GET', `/events/${event.id}`, { token: partner.token })).body).toEqual(
      event,
    );
    const created = await h.api('GET', '/events?type=order.created&limit=1', {
      token: partner.token,
    });
    expect(created.body).toEqual({
      data: [expect.objectContaining({ data: { object: b.body } })],
      has_more: true,
    });
    const next = await h.api(
      'GET',
      `/events?type=order.created&starting_after=${created.body.data[0].id}`,
      { token: partner.token },
    );
    expect(next.body.data.map((e: { id: string }) => e.id)).toEqual([event.id]);
    expectProblemShape(
      await h.api('GET', '/events/evt_nope', { token: partner.token }),
      'not_found',
      404,
    );
  });
});
