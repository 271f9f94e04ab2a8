/** Options of `buildApp` (and of `startServer`, which adds host and port). */
export interface AppOptions {
  /** SQLite file path; `:memory:` (the default for buildApp) keeps nothing after close. */
  db?: string;
  /** Mounts the control protocol at `/__control` (contract §3) when given; never mounted without. */
  controlToken?: string;
  /** `{docs_url}` of problem `type` URIs. Default `https://docs.example.com` (contract §2). */
  docsUrl?: string;
  /** Request logging to stderr (credentials in URLs are masked). Default off. */
  logger?: boolean;
  /**
   * Test-only switches that each break one rule on purpose (see defects.ts).
   * Default none. Set only in-process, never over HTTP.
   */
  defects?: readonly string[];
}

export const DEFAULT_DOCS_URL = 'https://docs.example.com';
