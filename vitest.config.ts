import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI and server suites spawn processes and write trees; two cores are all we have.
    testTimeout: 30_000,
  },
});
