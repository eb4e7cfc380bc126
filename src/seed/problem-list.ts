/** At most this many problems are written out; the count of all of them is given. */
const LISTED_PROBLEMS = 200;

/** Problems one per line, indented, the list cut after LISTED_PROBLEMS lines (a file can hold 100,000 bad records). */
export function problemList(lines: readonly string[]): string {
  const more = lines.length > LISTED_PROBLEMS ? [`... and ${lines.length - LISTED_PROBLEMS} more`] : [];
  return `  ${[...lines.slice(0, LISTED_PROBLEMS), ...more].join('\n  ')}`;
}
