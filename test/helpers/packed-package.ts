/**
 * The package as npm packs it, for the package tests: `npm pack` of the built tree into a temporary
 * workspace, and a fresh consumer project to unpack or install it into.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository's root. */
export const REPOSITORY_ROOT: string = resolve(new URL('../..', import.meta.url).pathname);

/** What a child process produced. */
export interface ProcessRun {
  /** Exit code; -1 when the process was killed (time-out) or could not start. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (never rejects); npm stays offline unless `online`; `env` is added to this process's environment. */
export function runProcess(command: string, args: readonly string[], cwd: string, options: { timeoutInMs?: number; online?: boolean; env?: Record<string, string> } = {}): Promise<ProcessRun> {
  const npm = options.online === true ? { npm_config_prefer_offline: 'true' } : { npm_config_offline: 'true' };
  const env = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...npm, ...options.env };
  return new Promise((done) => {
    execFile(command, [...args], { cwd, timeout: options.timeoutInMs ?? 120_000, maxBuffer: 32 * 1024 * 1024, env }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The package's subpath exports that hold code (not `./package.json` nor the schemas), as import specifiers (`aicap`, `aicap/client`…). */
export function codeSpecifiers(): string[] {
  const packageJson = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  return Object.keys(packageJson.exports)
    .filter((key) => key !== './package.json' && !key.startsWith('./schema/'))
    .map((subpath) => (subpath === '.' ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`));
}

/** A packed tarball in a fresh workspace. */
export interface PackedPackage {
  /** The temporary directory holding the tarball; the caller removes it. */
  workspace: string;
  /** Absolute path of the tarball. */
  tarball: string;
  /** The packed files, relative to the package root. */
  files: string[];
}

/** Packs the built tree (`npm pack --ignore-scripts`) into a new temporary workspace. Throws with npm's output when packing fails. */
export async function packPackage(prefix: string): Promise<PackedPackage> {
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  const pack = await runProcess('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', workspace], REPOSITORY_ROOT);
  if (pack.code !== 0) throw new Error(`npm pack failed (${pack.code}): ${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { workspace, tarball: join(workspace, packed!.filename), files: packed!.files.map((file) => file.path) };
}

/** Creates an empty ESM consumer project (`package.json` only) under `parent/name` and returns its path. */
export function createConsumerProject(parent: string, name: string): string {
  const project = join(parent, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module" }\n');
  return project;
}

/**
 * Unpacks the tarball into `project/node_modules/aicap` the way npm lays it out, and links every
 * package of this checkout's node_modules beside it except those `leaveOut` names (npm's offline mode
 * cannot resolve a fresh project without the registry's metadata). Throws when tar fails.
 */
export async function unpackIntoProject(packed: PackedPackage, project: string, leaveOut: readonly string[] = []): Promise<void> {
  const installed = join(project, 'node_modules', 'aicap');
  mkdirSync(installed, { recursive: true });
  const untar = await runProcess('tar', ['xzf', packed.tarball, '-C', installed, '--strip-components=1'], packed.workspace);
  if (untar.code !== 0) throw new Error(`tar failed (${untar.code}): ${untar.stderr}`);
  for (const name of readdirSync(join(REPOSITORY_ROOT, 'node_modules'))) {
    if (name === '.bin' || name === 'aicap' || name.startsWith('.') || leaveOut.includes(name)) continue;
    symlinkSync(join(REPOSITORY_ROOT, 'node_modules', name), join(project, 'node_modules', name));
  }
}
