/** The client defect matrix's defects (defects.mjs): each breaks one MUST client rule of the sample client. */
export interface ClientDefect {
  name: string;
  /** The client rule it breaks, and no other. */
  rule: string;
  breaks: string;
  /** Options of its `client` run (a narrower `--situations`, a longer `--retry-after`); absent: the defaults. */
  args?: string[];
  wrap(fetch: typeof globalThis.fetch, env: NodeJS.ProcessEnv): typeof globalThis.fetch;
}

export const CLIENT_DEFECTS: ClientDefect[];
