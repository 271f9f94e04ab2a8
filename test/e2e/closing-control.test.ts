import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { type Spawned, spawnServer, stop } from '../server/support/spawn-server.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * Set-up never blames the target for the network, as a user meets it: the control API sits behind
 * something that closes kept-alive sockets early (an idle timeout shorter
 * than the pauses between control calls, under load). Here, a proxy in front
 * of the reference's control API drops every connection as its second
 * request arrives, before answering anything: the harshest such server, with
 * no clock to wait for. Set-up lost that way is sent again on a new
 * connection, so the run still certifies the reference: conforms, 0 error.
 */
const token = randomBytes(24).toString('base64url');
let server: Spawned;
let proxy: Server;
let proxyOrigin: string;
let dropped = 0;

beforeAll(async () => {
  const file = join(emptyDir('closing-control-'), 'control-token');
  writeFileSync(file, token);
  server = await spawnServer(['--port', '0', '--db', ':memory:', '--control-token-file', file]);
  const perSocket = new WeakMap<Socket, number>();
  proxy = createServer(async (req, res) => {
    const seen = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, seen);
    if (seen > 1) {
      dropped += 1;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    try {
      const upstream = await request(`${server.origin}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
      });
      const body = Buffer.from(await upstream.body.arrayBuffer());
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(upstream.headers)) {
        if (
          value !== undefined &&
          !['connection', 'keep-alive', 'transfer-encoding'].includes(name)
        )
          out[name] = value;
      }
      res.writeHead(upstream.statusCode, out);
      res.end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (proxy) {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  }
  if (server) await stop(server.child, 'SIGTERM');
});

describe('a control API whose server closes reused sockets', () => {
  it('the run is conforms, with 0 error: lost set-up is retried on a new connection', async () => {
    const dir = join(emptyDir('closing-control-reports-'), 'r');
    const result = await runCli(
      [
        '--target',
        server.origin,
        '--control-url',
        `${proxyOrigin}/__control`,
        '--allow-live-orders',
        '--seed',
        '1',
        '--report-dir',
        dir,
      ],
      { CONTROL_TOKEN: token },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(result.code, output).toBe(0);
    const report = readReport(dir);
    expect(report.summary.error).toBe(0);
    expect(report.summary.failed).toBe(0);
    // A check that times a request against the account clock, which runs in real time too
    // (RATE-10, AUTH-05), says so when a request came too late to tell, as on a machine too busy
    // (CI, several runs at once): not verifiable, for that reason only, and never an error.
    const unjudged = report.results.filter((r) => r.level === 'MUST' && r.verdict !== 'passed');
    for (const rule of unjudged) {
      expect(rule.verdict, rule.rule_id).toBe('not_verifiable');
      expect(rule.reason, rule.rule_id).toMatch(/too slow a round trip/);
    }
    expect(report.summary.outcome).toBe(unjudged.length === 0 ? 'conforms' : 'partial');
    // The proxy did drop reused connections: the run above met what it was meant to meet.
    expect(dropped).toBeGreaterThan(0);
  });
});
