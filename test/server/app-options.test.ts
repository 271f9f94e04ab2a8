import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
import { API, CONTROL_TOKEN, harness } from './support/harness.js';

describe('buildApp options', () => {
  it('defects: test-only defects composed at start; none by default', async () => {
    const plain = await buildApp({});
    onTestFinished(() => plain.close());
    expect(plain.defects).toEqual([]);
    const broken = await buildApp({ defects: ['token-type-lowercase'] });
    onTestFinished(() => broken.close());
    expect(broken.defects).toEqual(['token-type-lowercase']);
  });

  it('defects: an unknown name is refused rather than starting a correct server', async () => {
    await expect(buildApp({ defects: ['token-type-lowercas'] })).rejects.toThrow(
      /unknown defect "token-type-lowercas"/,
    );
  });

  it('refuses an empty control token', async () => {
    await expect(buildApp({ controlToken: '' })).rejects.toThrow(/controlToken/);
  });

  it('logger: request logs go to stderr with credentials masked', async () => {
    const lines: string[] = [];
    const spy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
    onTestFinished(() => spy.mockRestore());
    const app = await buildApp({ logger: true, controlToken: CONTROL_TOKEN });
    onTestFinished(() => app.close());
    const partner = await harness(app).partner();
    await app.inject({
      method: 'GET',
      url: `${API}/orders/${partner.token}?access_token=${partner.token}`,
    });
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).not.toContain(partner.token);
    expect(log).not.toContain(partner.key.secret_key);
    expect(log).not.toContain(CONTROL_TOKEN);
  });
});

describe('startServer', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('listens on 127.0.0.1 and a free port by default, and close() releases it', async () => {
    const server = await startServer({});
    servers.push(server);
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.origin}${API}/account`)).status).toBe(401);
    await server.close();
    await expect(fetch(`${server.origin}${API}/account`)).rejects.toThrow();
  });

  it('brackets an IPv6 host in the origin', async (context) => {
    const server = await startServer({ host: '::1' }).catch(() => undefined);
    if (!server) return context.skip('no IPv6 loopback on this machine');
    servers.push(server);
    expect(server.origin).toMatch(/^http:\/\/\[::1\]:\d+$/);
  });
});
