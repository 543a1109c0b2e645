import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/remove-temp-dirs.ts"],
    // CLI and server suites spawn processes and write trees; two cores are all we have.
    testTimeout: 30_000,
    // The S3 test server (s3rver) signs list continuation tokens with DES, which OpenSSL 3
    // keeps in its legacy provider: without it any listing past 1,000 keys answers 500.
    execArgv: ["--openssl-legacy-provider"],
  },
});
