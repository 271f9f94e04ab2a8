import type { ClientExchange } from '../sandbox/exchange.js';
import { isRecord, jsonOf } from '../sandbox/facts.js';

/** The key the sandbox gave the client: what the judges compare its requests with. Never reported. */
export interface GradedKey {
  accessKeyId: string;
  secretKey: string;
  scopes: readonly string[];
}

/**
 * The client's recorded exchanges, in the order they arrived, with what the
 * judges ask of them: what came after an answer, which tokens the sandbox
 * issued.
 */
export class Traffic {
  readonly all: readonly ClientExchange[];
  readonly key: GradedKey;
  /** Every access token the sandbox issued to the client, with the exchange that issued it. */
  readonly tokens = new Map<string, number>();

  constructor(exchanges: readonly ClientExchange[], key: GradedKey) {
    this.all = exchanges;
    this.key = key;
    for (const ex of exchanges) {
      if (ex.kind !== 'token' || ex.status === undefined || ex.status >= 300) continue;
      const body = jsonOf(ex.responseBody);
      if (isRecord(body) && typeof body.access_token === 'string')
        this.tokens.set(body.access_token, ex.id);
    }
  }

  /**
   * What the client sent once it had `ex`'s answer: later requests that
   * arrived after that answer went out. A request sent at the same time,
   * before the client could read the answer, is no reaction to it, however
   * late a busy machine delivered it: the first request on a connection the
   * client opened before the answer went out was under way by then.
   */
  after(ex: ClientExchange): ClientExchange[] {
    return this.all.filter(
      (e) =>
        e.id > ex.id &&
        e.receivedMs >= ex.answeredMs &&
        !(e.connection.first && e.connection.openedMs < ex.answeredMs),
    );
  }

  before(ex: ClientExchange): ClientExchange[] {
    return this.all.filter((e) => e.id < ex.id);
  }
}
