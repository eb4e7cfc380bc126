import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  readonly pid: number;
  /** The command line, arguments joined by spaces. */
  readonly command: string;
}

/** Children, grandchildren… of a process, from /proc (Linux). */
export function descendants(root: number): ProcessInfo[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the 2nd field after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), parent);
    } catch {
      // gone meanwhile
    }
  }
  const found: ProcessInfo[] = [];
  const wanted = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parentOf) {
      if (wanted.has(parent) && !wanted.has(pid)) {
        wanted.add(pid);
        grew = true;
      }
    }
  }
  for (const pid of wanted) {
    if (pid === root) continue;
    try {
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
