/**
 * What a benchmark reads of the processes it measures, from /proc (Linux): CPU seconds of a
 * process and of each of its threads by name, and resident memory.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** User and system CPU seconds of a process, or of one thread (`/proc/<pid>/task/<tid>`). */
function cpuOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  // The name in brackets may hold spaces: the fields are counted from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export function processCpuSeconds(pid: number): number {
  return existsSync(`/proc/${pid}/stat`) ? cpuOf(`/proc/${pid}/stat`) : 0;
}

/**
 * CPU seconds per thread name (threads of one name summed: onnxruntime's, libuv's pool), the main
 * thread as `main` (Node's other threads share its name).
 */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return byName;
  for (const tid of readdirSync(tasks)) {
    try {
      const name = tid === String(pid) ? 'main' : `${readFileSync(join(tasks, tid, 'comm'), 'utf8').trim()} (other threads)`;
      byName.set(name, (byName.get(name) ?? 0) + cpuOf(join(tasks, tid, 'stat')));
    } catch {
      // The thread ended while being read.
    }
  }
  return byName;
}

export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU used by each named process (and thread group) between `start()` and `stop()`. */
export function cpuMeter(processes: Record<string, number | undefined>, threadsOf: Record<string, number | undefined> = {}) {
  const read = () => ({
    processes: Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, pid ? processCpuSeconds(pid) : 0])),
    threads: Object.fromEntries(Object.entries(threadsOf).map(([name, pid]) => [name, pid ? threadCpuSeconds(pid) : new Map()])),
  });
  const before = read();
  const startedAt = performance.now();
  return {
    /** CPU seconds per process, and per thread name of the processes asked for, since the meter started; and the wall seconds. */
    stop() {
      const after = read();
      const wall = (performance.now() - startedAt) / 1000;
      const cpu = Object.fromEntries(
        Object.keys(processes).map((name) => [name, after.processes[name]! - before.processes[name]!]),
      );
      const threads = Object.fromEntries(
        Object.keys(threadsOf).map((name) => {
          const was = before.threads[name] as Map<string, number>;
          const now = after.threads[name] as Map<string, number>;
          return [name, Object.fromEntries([...now].map(([thread, seconds]) => [thread, seconds - (was.get(thread) ?? 0)]))];
        }),
      );
      return { wall, cpu, threads };
    },
  };
}
