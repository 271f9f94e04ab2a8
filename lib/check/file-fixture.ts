import { afterAll, expect } from 'vitest';
import type { Capability } from '../../rules/index.js';
import { type Caller, newSessionShared, Session } from '../client/session.js';
import { announceFileTally, announceTally } from '../client/tally-channel.js';
import { type ReadyAccount, ReadyAccountClient } from '../control/ready-accounts.js';
import { RevocationPoster } from '../control/revocations.js';
import type { AccountSettings, ControlClient } from '../control/types.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import type { Redactor } from '../evidence/redactor.js';
import type { Scoped } from '../evidence/scope.js';
import { ReplayBook } from '../evidence/trace.js';
import { pathOf } from '../target/dialect.js';
import type { RunConfig } from '../target/run-config.js';
import { HarnessError } from '../violations/harness-error.js';
import type { CheckRun } from './check-run.js';
import type { Key, TestAccount } from './context-api.js';
import { MadeOnce } from './made-once.js';
import { runBook, runShared, workerWire } from './run-shared.js';
import { currentRunConfig } from './selected-target.js';

/** The settings of a file's account (and of a check's own, `CheckOptions.ownAccounts`): limits generous enough that checks of other rules never hit them. */
export const FILE_ACCOUNT_SETTINGS = {
  limits: { max_order_value: 10_000_000, max_orders_per_day: 10_000 },
} as const;

/**
 * The state one check file shares between its checks: its own control
 * account and work made once, its replay book; its wire session (HTTP,
 * control, tokens, pacing, the 429 policy) is lib/client/session.ts. One per
 * file (`fileFixture()`, keyed by the file), never module state: a worker
 * runs file after file and keeps the engine's modules between them
 * (lib/runner/fresh-modules.ts). So files never share accounts, limits,
 * clocks, orders or evidence ids, and can run in parallel.
 */
export class FileFixture {
  readonly config: RunConfig;
  readonly session: Session;
  /** `{docs_url}` of problem types: from the profile, else learned from the first problem seen. */
  docsUrl: string | undefined;
  readonly #account = new MadeOnce<TestAccount>();
  /** Revocations under way of keys in accounts a finished check made (`revokeLater`). */
  readonly #revoking: Promise<void>[] = [];
  /** Hands such keys to the CLI's main thread instead, when the run has one to take them. */
  readonly #handOver: RevocationPoster | undefined;
  /** Accounts made ahead by the CLI's main thread, when the run has them (`RunConfig.readyAccounts`). */
  #readyAccounts: ReadyAccountClient | undefined;
  /** Work made once for the file's checks to share (`CheckContext.sharedInFile`), by name. */
  readonly shared = new Map<string, Promise<Scoped<unknown>>>();
  /** Orders placed with the partner key: cancelled at the end (sandbox etiquette). */
  readonly partnerOrders: { key: Key; id: string }[] = [];
  /** Every check of the file touches only accounts it makes itself (`checksUseOwnAccounts`). */
  ownAccounts = false;
  /**
   * Records the file's checks' exchanges into the evidence scope they are made
   * in (a check's, a property's run): one recorder, so ids are unique across
   * the file and shared work moves between checks without renumbering.
   */
  readonly recorder: EvidenceRecorder;
  /** The file's own replay book (none in partner mode, where the worker's is shared by every file). */
  readonly #book: ReplayBook | undefined;
  /** The file's checks registered and not yet ended (`checkRegistered`, `checkEnded`). */
  #checksLeft = 0;
  #closed: Promise<void> | undefined;

  constructor(config: RunConfig) {
    this.config = config;
    // Tokens, pacing and the replay book: the worker's in partner mode (one key, whose limits and
    // cached token every file shares: run-shared.ts); else the file's, its keys its own. One book
    // for the recorders (the session's, for exchanges of no check, and the checks'): exchange ids
    // unique across it, a replay's set-up found wherever it was made.
    const partner = config.controlUrl === undefined;
    const book = partner ? runBook : new ReplayBook();
    if (!partner) this.#book = book;
    this.session = new Session(config, {
      shared: partner ? runShared : newSessionShared(),
      recorder: (redactor) => new EvidenceRecorder(redactor, book),
      wire: workerWire(config),
      onPartnerSent: announceTally,
    });
    this.docsUrl = config.dialect.docsUrl;
    this.#handOver =
      config.revocations && config.controlUrl
        ? new RevocationPoster(config.revocations, config.controlUrl)
        : undefined;
    this.recorder = new EvidenceRecorder(this.session.redactor, book);
    // A replay reads the run's own credentials from the environment: no secret is written into it.
    this.recorder.credential(config.controlToken, 'CONTROL_TOKEN');
    this.recorder.credential(config.partnerKey?.secretKey, 'PARTNER_SECRET_KEY');
    this.recorder.credential(config.partnerKey?.accessKeyId, 'PARTNER_ACCESS_KEY_ID');
  }

  get redactor(): Redactor {
    return this.session.redactor;
  }

  /** On whose behalf a check's requests go: its evidence, its notes, whether a 429 is its subject. */
  callerOf(run: CheckRun): Caller {
    return {
      recorder: run.recorder,
      note: (text) => run.notes.push(text),
      provokes429: run.rule.provokes429,
    };
  }

  has(capability: Capability): boolean {
    return this.session.has(capability);
  }

  need(capability: Capability): void {
    this.session.need(capability);
  }

  /** The file's own account, made through `control` (the first asking check's): generous limits so that checks of other rules never hit them. */
  account(control: ControlClient): Promise<TestAccount> {
    this.need('accounts');
    return this.#account.get(() => control.createAccount(structuredClone(FILE_ACCOUNT_SETTINGS)));
  }

  /**
   * An account with these settings and a key with the defaults, made ahead
   * by the CLI's main thread (lib/control/ready-accounts.ts); undefined when
   * the run has none: the check makes its own.
   */
  readyAccount(settings: AccountSettings): Promise<ReadyAccount | undefined> {
    const channel = this.config.readyAccounts;
    if (channel === undefined) return Promise.resolve(undefined);
    this.#readyAccounts ??= new ReadyAccountClient(channel);
    return this.#readyAccounts.take(settings);
  }

  /**
   * Revokes a key no further check uses (one in an account a finished check
   * made) without waiting for it, off the record: the CLI's main thread does
   * it when the run has one to (`RunConfig.revocations`), else this file,
   * whose end waits for it.
   */
  revokeLater(key: Key): void {
    if (this.#handOver?.post(key.accessKeyId)) return;
    this.#revoking.push(this.session.control.revokeKey(key).catch(() => undefined));
  }

  /** A check of this file was registered (lib/check/register.ts). */
  checkRegistered(): void {
    this.#checksLeft += 1;
  }

  /**
   * A check of this file ended. After its last, the file is closed at once, and what it
   * recorded let go, rather than when its vitest file ends: a group (lib/runner/check-group.ts)
   * runs many check files as one vitest file, which keeps every check's test, and so this
   * fixture, until the group ends. Nothing reads the book after the file's last check (each
   * check's trace is made as it ends). A check that never ended (a timeout, a run stopped) leaves
   * the file to be closed when the group ends, as before.
   */
  async checkEnded(): Promise<void> {
    this.#checksLeft -= 1;
    if (this.#checksLeft > 0) return;
    await this.close();
    this.shared.clear();
    this.#book?.forget();
  }

  /** End of file: cancel partner orders, close sockets. Never throws; once only, however often called. */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    for (const { key, id } of this.partnerOrders) {
      const path = pathOf(this.config.dialect, 'orderCancel', { id });
      await this.session
        .send({ method: 'POST', path, auth: { kind: 'key', key } })
        .catch(() => undefined);
    }
    this.#readyAccounts?.close();
    await this.#handOver?.handedOver();
    await Promise.all(this.#revoking);
    await this.session.close();
  }
}

const fixtures = new Map<string, FileFixture>();

/**
 * The check file being loaded into a group (lib/runner/check-group.ts): one vitest file that
 * loads several check files, each still with its own fixture. Set only while that file's
 * module is evaluated, when its checks register; undefined otherwise.
 */
let loadingInGroup: string | undefined;

/** Loads the check file at `path` (absolute) into the group being collected: its checks and its fixture are its own. */
export async function loadIntoGroup(path: string, load: () => Promise<unknown>): Promise<void> {
  loadingInGroup = path;
  try {
    await load();
  } finally {
    loadingInGroup = undefined;
  }
}

/** The check file a check registers from, when it is loaded into a group; undefined when it is vitest's own file. */
export function checkFileInGroup(): string | undefined {
  return loadingInGroup;
}

/**
 * The fixture of the check file being collected or run, made on first use.
 * Keyed by the file's path: in partner mode files share one worker without
 * isolation, and a group loads several into one vitest file, and each must
 * still get its own fixture and clean-up.
 */
export function fileFixture(): FileFixture {
  const file = loadingInGroup ?? expect.getState().testPath ?? '(unknown file)';
  let fixture = fixtures.get(file);
  if (!fixture) {
    const config = currentRunConfig();
    if (!config) {
      throw new HarnessError(
        'HARNESS_CONFIG',
        'no run configuration: suites run through `npm run conformance`, not plain vitest',
      );
    }
    const made = new FileFixture(config);
    fixture = made;
    fixtures.set(file, made);
    afterAll(async () => {
      fixtures.delete(file);
      await made.close();
      if (made.session.partnerSent.length > 0) announceFileTally(file, made.session.partnerTally());
    }, 60_000);
  }
  return fixture;
}
