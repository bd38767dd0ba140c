import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    environment: 'node',
    // Browser tests start Chromium and servers; unit tests finish far sooner.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep Chromium-based files from starving each other.
    maxWorkers: 2,
  },
});
