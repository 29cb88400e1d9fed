// The machine and package versions a run was made on, recorded with its figures.
import { readFileSync } from 'node:fs';
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
