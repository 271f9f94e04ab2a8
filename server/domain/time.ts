/** Contract §2: times are RFC 3339 UTC strings. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/** Contract §2: the day for orders-per-day is the UTC calendar day of the account clock. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
