import { Session } from '../client/session.js';
import { serveReadyAccounts } from '../control/ready-accounts.js';
import { serveRevocations } from '../control/revocations.js';
import { readForecast, writeForecast } from '../plan/ahead-forecast.js';
import type { RunConfig } from '../target/run-config.js';
import { AccountsAhead } from './accounts-ahead.js';

/** The channels of a run's services, named after its run channel. */
export interface ServiceChannels {
  revocations: string;
  readyAccounts: string;
}

export function serviceChannels(runChannel: string): ServiceChannels {
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
 * (lib/control/ready-accounts.ts), foreseen by the last run of the same
 * `shape` (lib/plan/ahead-forecast.ts). `close` waits for every revocation and, for a
 * run that went to its end, remembers what its checks asked for.
 */
export function serveTheChecks(
  names: ServiceChannels,
  configs: Promise<{ one: RunConfig }>,
  shape: (config: RunConfig) => string,
): { lastFileStarted(): void; close(ranToEnd: boolean): Promise<void> } {
  let session: Session | undefined;
  const sessionFor = (config: RunConfig) => {
    // As many sockets as a check file's session: the target counts the run's connections
    // (the reference closes those above 512 from one address).
    session ??= new Session(config, { connections: 32 });
    return session;
  };
  const revocations = serveRevocations(names.revocations, async ({ accessKeyId }) => {
    const { one } = await configs;
    await sessionFor(one).control.revokeKey({ accessKeyId });
  });
  let ahead: { made: AccountsAhead; shape: string } | undefined;
  let readyAccounts: { close(): void } | undefined;
  configs.then(
    ({ one }) => {
      if (one.readyAccounts === undefined) return;
      // What the next files will soon ask for: of each settings as many as the files at a time
      // (a file's checks ask together, up to 7 of them), of all four times that. Foreseen,
      // twelve times: the first half second of a full run asks for ~85 (property lanes).
      const files = one.concurrency ?? 1;
      const key = shape(one);
      const forecast = readForecast(key);
      const made = new AccountsAhead(sessionFor(one), {
        each: files,
        most: (forecast.length > 0 ? 12 : 4) * files,
        forecast,
      });
      ahead = { made, shape: key };
      readyAccounts = serveReadyAccounts(names.readyAccounts, (settings) => made.take(settings));
    },
    () => undefined,
  );
  return {
    lastFileStarted: () => ahead?.made.stopMaking(),
    async close(ranToEnd) {
      readyAccounts?.close();
      await ahead?.made.close();
      if (ahead && ranToEnd) writeForecast(ahead.shape, ahead.made.asked());
      await revocations.drain();
      revocations.close();
      await session?.close();
    },
  };
}
