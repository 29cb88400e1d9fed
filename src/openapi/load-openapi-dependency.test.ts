import { describe, expect, it } from 'vitest';
import { checkOpenApiDependency, loadOpenApiDependency, loadYaml, OPENAPI_PEER_DEPENDENCIES, OPENAPI_PEER_INSTALL_COMMAND } from './load-openapi-dependency.js';

const moduleNotFound = (code: string): Error => Object.assign(new Error(`Cannot find package 'yaml'`), { code });

describe('loadOpenApiDependency', () => {
  it('returns what the loader gives', async () => {
    await expect(loadOpenApiDependency('yaml', 'read YAML', async () => 'module')).resolves.toBe('module');
  });

  it.each(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])('turns a missing package (%s) into DEPENDENCY_MISSING naming the install command', async (code) => {
    const missing = moduleNotFound(code);
    const error = await loadOpenApiDependency('yaml', 'read YAML', () => Promise.reject(missing)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AicapError', code: 'DEPENDENCY_MISSING', cause: missing });
    expect((error as Error).message).toBe(`aicap/openapi needs the optional peer dependency yaml to read YAML: run \`${OPENAPI_PEER_INSTALL_COMMAND}\`.`);
  });

  it('lets any other failure of the package through unchanged, not disguised as a missing package', async () => {
    const broken = new TypeError('yaml exploded while loading');
    await expect(loadOpenApiDependency('yaml', 'read YAML', () => Promise.reject(broken))).rejects.toBe(broken);
    await expect(loadOpenApiDependency('yaml', 'read YAML', () => Promise.reject(null))).rejects.toBeNull();
  });
});

describe('checkOpenApiDependency', () => {
  it('passes for an installed peer and names the install command for a missing one', () => {
    expect(() => checkOpenApiDependency('yaml', 'read YAML')).not.toThrow();
    expect(() => checkOpenApiDependency('aicap-no-such-package-for-tests', 'convert Swagger 2.0')).toThrow(
      expect.objectContaining({ code: 'DEPENDENCY_MISSING', message: expect.stringContaining('aicap-no-such-package-for-tests to convert Swagger 2.0') }),
    );
  });
});

describe('the OpenAPI peers', () => {
  it('are the packages package.json declares as optional peers, and the install command installs all of them', async () => {
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of OPENAPI_PEER_DEPENDENCIES) {
      expect(manifest.peerDependencies[name], name).toBeDefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(OPENAPI_PEER_INSTALL_COMMAND).toContain(` ${name}`);
    }
  });

  it('loads yaml synchronously, once', () => {
    const yaml = loadYaml();
    expect(yaml.parse('a: 1')).toEqual({ a: 1 });
    expect(loadYaml()).toBe(yaml);
  });
});
