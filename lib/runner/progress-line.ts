import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { listenForWaits, type WaitNotice } from '../client/wait-channel.js';
import { escapeTerminal } from '../reports/escape-terminal.js';
import type { Verdict } from '../verdict/words.js';

type Counts = Record<Verdict, number>;

const SHORT: Record<Verdict, string> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'warning',
  not_verifiable: 'n/v',
  skipped: 'skipped',
  error: 'error',
};

export interface ProgressOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Non-TTY: how often a plain line is printed (CI logs should not get one line per check). */
  intervalMs?: number;
}

/**
 * A live progress line on stderr instead of vitest's own output. On a
 * terminal it is one line rewritten in place; elsewhere (CI logs) a plain
 * line every few seconds, so a log shows the run is alive without drowning.
 */
export class ProgressLine implements Reporter {
  readonly #stream: NonNullable<ProgressOptions['stream']>;
  readonly #tty: boolean;
  readonly #intervalMs: number;
  readonly #counts: Counts = {
    passed: 0,
    failed: 0,
    warning: 0,
    not_verifiable: 0,
    skipped: 0,
    error: 0,
  };
  #total = 0;
  #done = 0;
  #last = '';
  #started = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #printedDone = -1;
  /** A deliberate wait a check announced (pacer, Retry-After), until it ends or a check finishes. */
  #wait: { what: string; until: number } | undefined;
  #unlisten: (() => void) | undefined;

  constructor(options: ProgressOptions = {}) {
    this.#stream = options.stream ?? process.stderr;
    this.#tty = this.#stream.isTTY === true;
    this.#intervalMs = options.intervalMs ?? 5_000;
  }

  onTestRunStart(): void {
    this.#started = Date.now();
    this.#unlisten = listenForWaits((notice) => this.waiting(notice));
    if (!this.#tty) {
      this.#timer = setInterval(() => this.#plain(), this.#intervalMs);
      this.#timer.unref();
    }
  }

  onTestModuleCollected(module: TestModule): void {
    this.#total += [...module.children.allTests()].length;
    this.#render();
  }

  onTestCaseResult(testCase: TestCase): void {
    this.#wait = undefined;
    this.#done += 1;
    this.#counts[quickVerdict(testCase)] += 1;
    this.#last = testCase.meta().ruleId ?? testCase.name;
    this.#render();
  }

  onTestRunEnd(): void {
    this.#unlisten?.();
    if (this.#timer) clearInterval(this.#timer);
    if (this.#tty) this.#stream.write('\r\x1b[2K');
    // A run called off before its checks (the target refused, say) ran none: no line for it.
    else if (this.#total > 0) this.#plain(true);
  }

  /**
   * A check waits on purpose: the line says for what and how long, and a CI
   * log gets a line at once (a minute of silence looks like a hang).
   */
  waiting(notice: WaitNotice): void {
    const until = Date.now() + notice.ms;
    // Requests sent side by side wait for the same window: one line says it.
    const same = this.#wait?.what === notice.what && Math.abs(this.#wait.until - until) < 2_000;
    this.#wait = { what: notice.what, until };
    if (same) return;
    if (this.#tty) this.#render();
    else this.#stream.write(`${this.line()}\n`);
  }

  line(): string {
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    const width = String(this.#total).length;
    const counts = (Object.keys(SHORT) as Verdict[])
      .filter((verdict) => this.#counts[verdict] > 0)
      .map((verdict) => `${SHORT[verdict]} ${this.#counts[verdict]}`)
      .join('  ');
    const head = `checks ${String(this.#done).padStart(width)}/${this.#total}`;
    const left = this.#wait ? Math.ceil((this.#wait.until - Date.now()) / 1000) : 0;
    const waiting = left > 0 ? `waiting ${left} s for ${this.#wait?.what}` : '';
    // What a wait names may hold a target's identifiers: nothing in the line may act on the terminal.
    return escapeTerminal(
      [head, counts, `${seconds}s`, this.#last, waiting].filter(Boolean).join('  '),
    );
  }

  #render(): void {
    if (!this.#tty) return;
    const columns = this.#stream.columns ?? 100;
    this.#stream.write(`\r\x1b[2K${this.line().slice(0, columns - 1)}`);
  }

  #plain(force = false): void {
    // Nothing new since the last line: stay quiet (a slow check must not fill the log). Nor before
    // any check is known: workers started beside a slow dialect probe may never run one.
    if (!force && (this.#done === this.#printedDone || this.#total === 0)) return;
    this.#printedDone = this.#done;
    this.#stream.write(`${this.line()}\n`);
  }
}

/** The verdict for the progress counts only; the report's verdicts come from the merged results. */
function quickVerdict(testCase: TestCase): Verdict {
  const outcome = testCase.meta().conformance;
  if (outcome) return outcome.verdict;
  const state = testCase.result().state;
  return state === 'skipped' ? 'skipped' : 'error';
}
