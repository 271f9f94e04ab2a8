import { parseFlags, USAGE } from './cli/flags.js';
import { type RunningServer, startServer } from './start.js';

/**
 * `npm run reference -- --port N [--control-token-file FILE] [--db PATH] [--host H] [--durability relaxed] [--profile FILE] [--shipping-cents N]`
 * (or CONTROL_TOKEN in the environment).
 * Prints exactly one line on stdout, `listening http://HOST:PORT`. Bad flags:
 * one line on stderr, exit 2. Start failure (port in use, database in use):
 * one line on stderr, exit 1. SIGINT/SIGTERM shut down gracefully: no new
 * connections, GET /readyz answers 503, requests in flight are finished
 * (their writes committed), then the database is closed and the process
 * exits 0 (test/server/health-shutdown.test.ts).
 */
async function main(): Promise<void> {
  const parsed = parseFlags(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    for (const line of parsed.error.split('\n')) process.stderr.write(`reference: ${line}\n`);
    process.exit(2);
  }
  if ('help' in parsed) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const {
    host,
    port,
    db,
    controlToken,
    docsUrl,
    logger,
    durability,
    databaseUrl,
    databasePoolMax,
    profile,
    shippingCents,
    databaseWaitMs,
    trustProxy,
    maxConnectionsPerAddress,
    warnings,
  } = parsed.options;
  for (const warning of warnings) process.stderr.write(`reference: ${warning}\n`);
  let server: RunningServer;
  try {
    server = await startServer({
      host,
      port,
      db,
      logger,
      durability,
      ...(controlToken !== undefined ? { controlToken } : {}),
      ...(docsUrl !== undefined ? { docsUrl } : {}),
      ...(profile !== undefined ? { profile } : {}),
      ...(shippingCents !== undefined ? { shippingCents } : {}),
      ...(databaseUrl !== undefined ? { databaseUrl } : {}),
      ...(databasePoolMax !== undefined ? { databasePoolMax } : {}),
      ...(trustProxy.length > 0 ? { trustProxy } : {}),
      ...(maxConnectionsPerAddress !== undefined ? { limits: { maxConnectionsPerAddress } } : {}),
      databaseWaitMs,
      // docs/sandbox.md: past the start-up wait, exit 1 so that a supervisor starts it again.
      onDatabaseGiveUp: (error) => {
        process.stderr.write(`reference: cannot start: ${describe(error, host, port)}\n`);
        process.exit(1);
      },
    });
  } catch (error) {
    process.stderr.write(`reference: cannot start: ${describe(error, host, port)}\n`);
    process.exit(1);
  }
  process.stdout.write(`listening ${server.origin}\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      process.stderr.write(`reference: ${signal} again, exiting at once\n`);
      process.exit(1);
    }
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`reference: error while closing: ${describe(error, host, port)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

function describe(error: unknown, host: string, port: number): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use`;
  if (code === 'EADDRNOTAVAIL') return `address ${host} is not available on this machine`;
  if (code === 'EACCES') return `no permission to listen on ${host}:${port}`;
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
}

await main();
