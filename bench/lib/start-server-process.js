// Parent side of `server-process.js`: forks it, waits for its origins, asks for request counts and
// RSS, stops it. Every wait is bounded, so a server that fails to start ends the run with a message
// instead of hanging it.
import { fork } from 'node:child_process';
import { processCpuReader } from './environment.js';

const START_TIMEOUT_IN_MS = 120_000;
const ANSWER_TIMEOUT_IN_MS = 10_000;

/**
 * @param {string} set `latency`, `scale` or a serving target name.
 * @param {string[]} [extraArguments] More arguments for the child (`scale`: the manifest list file).
 * @returns {Promise<{ origins: Record<string, string>, pid: number, serverCpuInMs: (() => number) | undefined, startRssInBytes: number, counts(): Promise<Record<string, number>>, rss(): Promise<number>, stop(): Promise<void> }>}
 */
export async function startServerProcess(set, extraArguments = []) {
  const child = fork(new URL('./server-process.js', import.meta.url), [set, ...extraArguments], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = (type, timeoutInMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`The ${set} server process sent no "${type}" message within ${timeoutInMs} ms.`));
      }, timeoutInMs);
      const onMessage = (message) => {
        if (message.type !== type) return;
        cleanup();
        resolve(message);
      };
      const onExit = (code) => {
        cleanup();
        reject(new Error(`The ${set} server process exited with code ${code} before sending "${type}".`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  let ready;
  try {
    ready = await next('ready', START_TIMEOUT_IN_MS);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    origins: ready.origins,
    pid: child.pid,
    serverCpuInMs: processCpuReader(child.pid),
    startRssInBytes: ready.rssInBytes,
    async counts() {
      child.send({ type: 'counts' });
      return (await next('counts', ANSWER_TIMEOUT_IN_MS)).counts;
    },
    async rss() {
      child.send({ type: 'rss' });
      return (await next('rss', ANSWER_TIMEOUT_IN_MS)).rssInBytes;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), ANSWER_TIMEOUT_IN_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
