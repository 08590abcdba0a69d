/**
 * CPU time (user + system) and RSS of a process and all its descendants, from /proc (Linux), so
 * every target (cluster workers, nginx workers included) is measured the same way, from outside.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

type Stat = { readonly ppid: number; readonly cpuTicks: number; readonly rssPages: number };

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After ')': state(0) ppid(1) … utime(11) stime(12) … rss(21), per proc(5).
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
  } catch {
    return undefined;
  }
}

/** The process and every descendant alive now. */
function tree(root: number): Stat[] {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  const found: Stat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const stat = stats.get(pid);
    if (!stat) continue;
    found.push(stat);
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return found;
}

/** CPU (user + system) of the process tree so far, in µs (clock-tick resolution: 10 ms at 100 Hz). */
export const treeCpuMicros = (pid: number): number => (tree(pid).reduce((sum, s) => sum + s.cpuTicks, 0) * 1_000_000) / TICKS_PER_SECOND;

/** Resident memory of the process tree, in bytes. */
export const treeRssBytes = (pid: number): number => tree(pid).reduce((sum, s) => sum + s.rssPages, 0) * 4096;
