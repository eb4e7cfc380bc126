// The head of a long text as a string of its own. V8 keeps a slice pointing into its parent, so
// a 600-character excerpt kept in a report would keep a body of megabytes alive with it.

export function head(text: string, length: number): string {
  if (text.length <= length) return text;
  return Buffer.from(text.slice(0, length), 'utf8').toString('utf8');
}
