// A URL given with a query (a presigned URL's signature and session token, an apiKey) is refused without echoing it.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, runCli, tempDir } from "../helpers.js";

const SIGNATURE = "5ec4e7516a7u4e";
const TOKEN = "Fw0GZXIvYXdzEXAMPLETOKEN";
const API_KEY = "0123456789abcdef0123456789abcdef01234567";
// What a presigned URL carries after its `?`.
const PRESIGNED = `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261207%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${TOKEN}&X-Amz-Signature=${SIGNATURE}`;
const SECRETS = [SIGNATURE, TOKEN, API_KEY];

function expectRefusedUnread(
  result: { code: number | null; stdout: string; stderr: string },
  said: string,
  given: string,
): void {
  expect(result.code, given).toBe(1);
  expect(result.stdout, given).toBe("");
  expect(result.stderr, given).toContain(said);
  for (const secret of SECRETS) expect(result.stderr, given).not.toContain(secret);
  expect(result.stderr, given).not.toMatch(/\n\s+at /); // no stack
}

describe("a URL with a query", () => {
  it("is refused as publish's --to, whatever else is wrong with it, never echoed", async () => {
    const out = join(await tempDir(), "out");
    for (const to of [
      `https://velodata.s3.amazonaws.com/v1?${PRESIGNED}`,
      // Taken before as the prefix `v1?X-Amz-…`: objects no CDN path reaches, the signature in each key.
      `s3://velodata/v1?${PRESIGNED}`,
      `s3://Velodata/v1?${PRESIGNED}`,
      `s3://velodata/a//b?${PRESIGNED}`,
      `s3://velodata/v1#apiKey=${API_KEY}`,
    ]) {
      const result = await runCli(["publish", "--out", out, "--to", to, "--dry-run"]);
      expectRefusedUnread(
        result,
        "velodata: --to must read s3://BUCKET/PREFIX, with no query (?) or fragment (#)",
        to,
      );
    }
  });

  it("is refused as publish's --endpoint, never echoed", async () => {
    const out = join(await tempDir(), "out");
    for (const endpoint of [
      `https://store.example.org/?${PRESIGNED}`,
      `ftp://store.example.org/?${PRESIGNED}`,
      `not a url?${PRESIGNED}`,
    ]) {
      const publish = ["publish", "--out", out, "--to", "s3://velodata/v1"];
      const result = await runCli([...publish, "--endpoint", endpoint]);
      expectRefusedUnread(
        result,
        "velodata: --endpoint must be the store's address alone, with no query (?) or fragment (#)",
        endpoint,
      );
    }
  });

  it("is refused as --base-url or VELODATA_BASE_URL, never echoed", async () => {
    const out = join(await tempDir(), "out");
    const build = ["build", "--source", FIXTURES, "--out", out];
    for (const baseUrl of [
      `https://api.example.org/?apiKey=${API_KEY}`,
      `ftp://api.example.org/?apiKey=${API_KEY}`,
      `api.example.org?apiKey=${API_KEY}`,
      `https://api.example.org/#${API_KEY}`,
    ]) {
      expectRefusedUnread(
        await runCli([...build, "--base-url", baseUrl]),
        "velodata: --base-url must be a plain base URL, with no query (?) or fragment (#)",
        baseUrl,
      );
      expectRefusedUnread(
        await runCli(build, undefined, { VELODATA_BASE_URL: baseUrl }),
        "velodata: VELODATA_BASE_URL must be a plain base URL, with no query (?) or fragment (#)",
        baseUrl,
      );
    }
  });
});
