import fs from 'node:fs';

/** One process as /proc shows it: CPU seconds (its own plus its reaped children's) and peak resident memory. */
export interface ProcessInfo {
  pid: number;
  parent: number;
  name: string;
  cmdline: string;
  cpu: number;
  peakRssMb: number;
}

const TICK = 100; // USER_HZ on Linux

/** Every process on the machine now (those gone meanwhile are skipped). */
export function readProcesses(): Map<number, ProcessInfo> {
  const all = new Map<number, ProcessInfo>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ..." where comm may hold spaces; fields after the closing parenthesis are positional.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime + cutime + cstime: a child that exited and was reaped moves its CPU to its parent.
      const cpu = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'));
      all.set(Number(entry), {
        pid: Number(entry),
        parent: Number(f[1]),
        name,
        cmdline,
        cpu,
        peakRssMb: hwm ? Number(hwm[1]) / 1024 : 0,
      });
    } catch {
      continue; // gone meanwhile
    }
  }
  return all;
}

/**
 * `root` and every process below it. Descendants, not the session or process group: PostgreSQL's backends call
 * setsid, so only the parent links keep them with the postmaster that forked them.
 */
export function descendants(all: Map<number, ProcessInfo>, root: number): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const info of all.values()) {
    let up = info.pid;
    while (up !== root && up > 1) up = all.get(up)?.parent ?? 1;
    if (up === root) out.push(info);
  }
  return out;
}

/** CPU seconds of this process (the bench itself: load generator, receivers, in-process workers). */
export function ownCpu(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** What kind of PostgreSQL process this is, from its title: a backend of one database, or the server's own work. */
export function postgresKind(info: ProcessInfo, databases: Record<string, string>): string {
  const backend = /^postgres: \S+ (\S+) /.exec(info.cmdline);
  if (backend && databases[backend[1]]) return databases[backend[1]];
  return 'postgres (server: WAL, checkpoints, …)';
}
