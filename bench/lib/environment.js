// The machine and package versions a run was made on, recorded with its figures.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { round } from './measure.js';

const ROOT = new URL('../../', import.meta.url);
const PACKAGES = ['@modelcontextprotocol/sdk', 'express', 'undici', 'autocannon', 'gpt-tokenizer'];

export function describeMachine() {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryInGiB: round(totalmem() / 1024 ** 3, 1),
    os: `${type()} ${release()}`,
    node: process.version,
  };
}

/** One-minute load average, to show how quiet the machine was. */
export function loadAverage() {
  return round(loadavg()[0], 2);
}

export function packageVersions() {
  const version = (path) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8')).version;
  return { aicap: version('package.json'), ...Object.fromEntries(PACKAGES.map((name) => [name, version(`node_modules/${name}/package.json`)])) };
}

/**
 * CPU time a process has used so far, in milliseconds, from the nanosecond counters of its threads
 * (`/proc/<pid>/task/<tid>/schedstat`; Linux). Undefined elsewhere: the bench then records client CPU only.
 * @param {number} pid
 * @returns {(() => number) | undefined}
 */
export function processCpuReader(pid) {
  const tasks = `/proc/${pid}/task`;
  try {
    readdirSync(tasks);
  } catch {
    return undefined;
  }
  return () => {
    let nanoseconds = 0;
    for (const task of readdirSync(tasks)) {
      try {
        nanoseconds += Number(readFileSync(`${tasks}/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
    return nanoseconds / 1e6;
  };
}

/**
 * CPU ticks the whole machine spent busy, and those this process and its reaped children spent, so
 * far (Linux `/proc`; undefined elsewhere). Two readings give how much CPU other processes took
 * during a run, which the load average cannot: at the end it counts the bench's own processes too
 * (its fleet of ten clients, its servers).
 * @returns {{ machineBusy: number, own: number, elapsed: number } | undefined}
 */
export function readCpuTicks() {
  try {
    // cpu  user nice system idle iowait irq softirq steal …: idle and iowait are the only idle columns.
    const columns = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const total = columns.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const machineBusy = total - columns[3] - columns[4];
    // Fields after the command name (which may hold spaces): state is field 3, utime…cstime fields 14–17.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = fields[11] + fields[12] + fields[13] + fields[14];
    return { machineBusy, own, elapsed: total / describeMachine().cores };
  } catch {
    return undefined;
  }
}

/**
 * Share of the machine's CPU that other processes used between two {@link readCpuTicks} readings
 * (0 to 1), or undefined when either is missing.
 */
export function otherCpuShare(start, end) {
  if (start === undefined || end === undefined) return undefined;
  const elapsed = end.elapsed - start.elapsed;
  if (elapsed <= 0) return undefined;
  const others = end.machineBusy - start.machineBusy - (end.own - start.own);
  return round(Math.max(0, others) / (elapsed * describeMachine().cores), 3);
}

/** Most of the machine other processes may take during a run whose figures are recorded. */
export const MAX_OTHER_CPU_SHARE = 0.25;

/**
 * Whether the machine is quiet enough for figures to be compared with targets: the one-minute load
 * average at most the core count when the run starts, and other processes using at most a quarter of
 * the machine's CPU while it runs. A loaded run still prints.
 * @param {{ loadAtStart: number, otherCpuShare: number | undefined }} reading
 */
export function isQuietEnough({ loadAtStart, otherCpuShare }, cores = describeMachine().cores) {
  return loadAtStart <= cores && (otherCpuShare === undefined || otherCpuShare <= MAX_OTHER_CPU_SHARE);
}
