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
 * Whether the machine is quiet enough for figures to be compared with targets: the one-minute load
 * average at most the core count, at the start and at the end of the run. A loaded run still prints.
 * @param {number[]} loadAverages
 */
export function isQuietEnough(loadAverages, cores = describeMachine().cores) {
  return loadAverages.every((load) => load <= cores);
}
