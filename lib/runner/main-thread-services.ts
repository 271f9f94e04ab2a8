import { Session } from '../client/session.js';
import { serveReadyAccounts } from '../control/ready-accounts.js';
import { serveRevocations } from '../control/revocations.js';
import type { RunConfig } from '../target/run-config.js';
import { AccountsAhead } from './accounts-ahead.js';

/** The channels of a run's services, named after its run channel. */
export function serviceChannels(runChannel: string): {
  revocations: string;
  readyAccounts: string;
} {
  return {
    revocations: `${runChannel}:revocations`,
    readyAccounts: `${runChannel}:ready-accounts`,
  };
}

/**
 * What the CLI's main thread does for the check files of a run, through one
 * session of its own (off the record), once the run's configuration is known:
 * revokes the keys they hand over (lib/control/revocations.ts) and, when the
 * configuration says so (`readyAccounts`), makes accounts ahead for them
 * (lib/control/ready-accounts.ts). `close` waits for every revocation.
 */
export function serveTheChecks(
  runChannel: string,
  configs: Promise<{ one: RunConfig }>,
): { lastFileStarted(): void; close(): Promise<void> } {
  const names = serviceChannels(runChannel);
  let session: Session | undefined;
  const sessionFor = (config: RunConfig) => {
    // Requests side by side for every file at a time (accounts and keys for a whole file's checks).
    session ??= new Session(config, { connections: Math.min(256, 16 * (config.concurrency ?? 1)) });
    return session;
  };
  const revocations = serveRevocations(names.revocations, async ({ accessKeyId }) => {
    const { one } = await configs;
    await sessionFor(one).control.revokeKey({ accessKeyId });
  });
  let ahead: AccountsAhead | undefined;
  let readyAccounts: { close(): void } | undefined;
  configs.then(
    ({ one }) => {
      if (one.readyAccounts === undefined) return;
      // Twice the files at a time: what the next files will soon ask for (a file's checks ask
      // together, up to 7 of them).
      const made = new AccountsAhead(sessionFor(one), 2 * (one.concurrency ?? 1));
      ahead = made;
      readyAccounts = serveReadyAccounts(names.readyAccounts, (settings) => made.take(settings));
    },
    () => undefined,
  );
  return {
    lastFileStarted: () => ahead?.stopMaking(),
    async close() {
      readyAccounts?.close();
      await ahead?.close();
      await revocations.drain();
      revocations.close();
      await session?.close();
    },
  };
}
