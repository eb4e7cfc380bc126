/**
 * The `serve` flags that give the fake `records` event log records and a limit lenient enough
 * that the benchmark measures serving, not blocking.
 */
export function fakeDataFlags(_records: number): string[] {
  return [];
}
