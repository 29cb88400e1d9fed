import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples import the package by name (`aicap/express`) as a user would; tests run them against the sources, not dist/.
  resolve: {
    alias: [
      { find: /^aicap$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^aicap\/([a-z-]+)$/, replacement: fileURLToPath(new URL('./src/$1/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'bench/**/*.test.js'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    setupFiles: ['./test/helpers/isolate-user-cache.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here and in CI: forks keep sockets and timers of one file away from another.
    pool: 'forks',
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
  },
});
