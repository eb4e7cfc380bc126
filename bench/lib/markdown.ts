/** A Markdown table; cells are written as given. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = {
  rps: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')),
  ratio: (n: number, digits = 2) => `${n.toFixed(digits)}×`,
  mib: (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MiB`,
  count: (n: number) => n.toLocaleString('en-US'),
  met: (ok: boolean) => (ok ? 'met' : '**not met**'),
};
