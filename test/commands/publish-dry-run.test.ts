// `velodata publish --dry-run` end to end: the real CLI against a real S3 server, which must hold the same bytes after it.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";
import { BUCKET, startS3WithCredentials, type TestS3 } from "../host/object-storage/s3-server.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3WithCredentials();
});
afterAll(() => s3.close());

const SCENARIO = 120_000;
const PUBLIC_URL = "https://api.example.net";

async function builtTree(): Promise<{ source: string; out: string }> {
  const source = await fixtureCopy();
  const out = join(await tempDir(), "out");
  const build = ["build", "--source", source, "--out", out, "--base-url", PUBLIC_URL];
  expect((await runCli(build)).code).toBe(0);
  return { source, out };
}

const publishArgs = (out: string, prefix: string, ...more: string[]) => [
  ...["publish", "--out", out, "--to", `s3://${BUCKET}/${prefix}`],
  ...["--endpoint", s3.endpoint, ...more],
];

/** What a run (or dry run) with --include-keyed says when the store holds no keyed answer yet. */
const KEYED_WARNING =
  /^warning: --include-keyed puts (\d+) keyed answers in the store, where anyone reads them without a key: .*\n/;

async function publishCli(out: string, prefix: string, ...more: string[]): Promise<string> {
  const result = await runCli(publishArgs(out, prefix, ...more));
  expect(result.stderr.replace(KEYED_WARNING, "")).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Every key under the prefix with its ETag, headers and stored bytes: what a dry run must leave as it was. */
async function snapshot(prefix: string): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (const [key, etag] of await s3.keys(`${prefix}/`)) {
    const head = await s3.head(key);
    const headers = [head.ContentType, head.CacheControl, head.ContentEncoding, head.LastModified];
    const bytes = (await s3.stored(key)).toString("base64");
    held.set(key, JSON.stringify([etag, ...headers, bytes]));
  }
  return held;
}

/** Takes station dublin #30 out of the source (its answers leave) and changes every tenth state. */
async function changeSource(source: string, out: string): Promise<void> {
  const csv = join(source, "stations.csv");
  const lines = (await readFile(csv, "utf8")).split("\n");
  await writeFile(csv, lines.filter((line) => !line.startsWith("dublin,30,")).join("\n"));
  const file = join(source, "states.json");
  const states = JSON.parse(await readFile(file, "utf8"));
  states.states = states.states
    .filter(
      (state: { contract: string; number: number }) =>
        state.number !== 30 || state.contract !== "dublin",
    )
    .map((state: { lastUpdate: string }, index: number) =>
      index % 10 === 0 ? { ...state, lastUpdate: "2025-02-08T17:00:00Z" } : state,
    );
  await writeFile(file, JSON.stringify(states));
  const refresh = ["refresh", "--source", source, "--state", file, "--out", out];
  expect((await runCli(refresh)).code).toBe(0);
}

const count = (stdout: string, what: RegExp): number =>
  Number(what.exec(stdout)?.[1] ?? Number.NaN);

describe("velodata publish --dry-run", () => {
  it(
    "prints the puts and deletions a run would make, and leaves every object byte for byte",
    async () => {
      const { source, out } = await builtTree();
      await publishCli(out, "dry", "--include-keyed");
      await changeSource(source, out);
      const before = await snapshot("dry");
      const events = s3.events.length;

      const dry = await publishCli(out, "dry", "--include-keyed", "--dry-run");
      expect(await snapshot("dry")).toEqual(before);
      expect(s3.events.slice(events)).toEqual([]);

      expect(dry).toMatch(/^dry run: nothing was written to s3:\/\/velodata\/dry\n/);
      expect(dry).toMatch(/\ndry run: nothing was written\n$/);
      const puts = count(dry, /^would put (\d+) objects? \(0 new, \d+ changed\), [\d.]+ [kMG]?B$/m);
      const deletes = count(dry, /^would delete (\d+) objects?, [\d.]+ [kMG]?B$/m);
      const kept = count(
        dry,
        /^would keep (\d+) objects? for later \(no longer in the tree, deleted 3600 s after they left: --keep-removed\), [\d.]+ [kMG]?B$/m,
      );
      const unchanged = count(dry, /^would keep (\d+) objects? unchanged, [\d.]+ [kMG]?B$/m);
      expect(puts).toBeGreaterThan(80); // two answers of each changed station, and their lists
      // Station 30's answers are kept for now: a cached list may still name them.
      expect([deletes, kept]).toEqual([0, 2]);
      expect(unchanged).toBeGreaterThan(300);
      const leftAt = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
      for (const version of ["v1", "v3"])
        expect(dry).toMatch(
          new RegExp(
            `\\n {2}keep dry/vls/${version}/stations/dublin/30 until ${leftAt} \\(no longer in the tree since ${leftAt}\\)\\n`,
          ),
        );
      expect(dry).toContain(`… and ${puts - 10} more (--verbose lists them all)`);
      const verbose = await publishCli(out, "dry", "--include-keyed", "--dry-run", "--verbose");
      expect(verbose.match(/^ {2}put /gm)).toHaveLength(puts);
      expect(verbose.match(/^ {2}keep \S+$/gm)).toHaveLength(unchanged);
      expect(await snapshot("dry")).toEqual(before);

      // What it said is what a run does.
      expect(await publishCli(out, "dry", "--include-keyed")).toMatch(
        new RegExp(
          `: ${puts} uploaded, 0 deleted, ${kept} kept for later \\(.*\\), ${unchanged} unchanged, `,
        ),
      );
      // And so, at once, with --keep-removed 0.
      const atOnce = await publishCli(
        out,
        "dry",
        "--include-keyed",
        "--dry-run",
        "--keep-removed",
        "0",
      );
      expect(atOnce).toMatch(/^would delete 2 objects, [\d.]+ [kMG]?B$/m);
      expect(atOnce).toContain(
        "\n  delete dry/vls/v1/stations/dublin/30 (no longer in the tree)\n",
      );
      expect(atOnce).toContain(
        "\n  delete dry/vls/v3/stations/dublin/30 (no longer in the tree)\n",
      );
      expect(atOnce).not.toMatch(/^would keep \d+ objects? for later/m);
    },
    SCENARIO,
  );

  it(
    "lists every object as new when the store holds nothing under the prefix, and writes none",
    async () => {
      const { out } = await builtTree();
      const dry = await publishCli(out, "first", "--dry-run");
      const puts = count(dry, /^would put (\d+) objects? \((\d+) new, 0 changed\)/m);
      expect(dry).toContain(`would put ${puts} objects (${puts} new, 0 changed)`);
      expect(dry).toMatch(/^would delete 0 objects, 0 B$/m);
      expect(dry).toMatch(/^would keep 0 objects unchanged, 0 B$/m);
      expect(dry.match(/^ {2}put first\/\S+ \(new\)$/gm)).toHaveLength(10);
      expect(dry).not.toContain("(changed)");
      expect([...(await s3.keys("first/")).keys()]).toEqual([]);
      expect(await publishCli(out, "first")).toMatch(new RegExp(`: ${puts} uploaded, 0 deleted`));
    },
    SCENARIO,
  );

  it(
    "says why the keyed answers would be deleted by a run without --include-keyed after one with it",
    async () => {
      const { out } = await builtTree();
      // Said before anything goes up, as a run says it; and not by a dry run once they are up.
      const first = await runCli(publishArgs(out, "keyed", "--include-keyed", "--dry-run"));
      const wouldPut = count(first.stderr, KEYED_WARNING);
      expect(wouldPut).toBeGreaterThan(400);
      await publishCli(out, "keyed", "--include-keyed");
      const later = await runCli(publishArgs(out, "keyed", "--include-keyed", "--dry-run"));
      expect([later.code, later.stderr]).toEqual([0, ""]);
      const dry = await publishCli(out, "keyed", "--dry-run", "--verbose");
      const keyed = count(
        dry,
        /^would delete (\d+) objects \(\1 keyed, --include-keyed not given\), [\d.]+ [kMG]?B$/m,
      );
      expect(keyed).toBeGreaterThan(400); // each station's v3 and v1 answers, the lists
      expect(dry).toContain(
        "\n  delete keyed/vls/v3/stations/dublin/42 (keyed, --include-keyed not given)\n",
      );
      expect(dry).toMatch(/^would put 0 objects/m);
      expect(keyed).toBe(wouldPut);
      expect(await publishCli(out, "keyed")).toContain(
        `: 0 uploaded, ${keyed} deleted (${keyed} keyed, --include-keyed not given), `,
      );
    },
    SCENARIO,
  );

  it(
    "reports a missing bucket or refused credentials as a run would, exit 1",
    async () => {
      const { out } = await builtTree();
      const to = ["--endpoint", s3.endpoint, "--dry-run"];
      const missing = await runCli([
        "publish",
        "--out",
        out,
        "--to",
        "s3://no-such-bucket/x",
        ...to,
      ]);
      expect([missing.code, missing.stderr]).toEqual([
        1,
        expect.stringContaining("the bucket does not exist"),
      ]);
      const refused = await runCli(publishArgs(out, "x", "--dry-run"), undefined, {
        AWS_ACCESS_KEY_ID: "NOT-A-KEY",
      });
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringContaining("the store refused the credentials (InvalidAccessKeyId)"),
      ]);
      const verbose = await runCli(publishArgs(out, "x", "--verbose"));
      expect([verbose.code, verbose.stderr]).toEqual([
        1,
        "velodata: --verbose lists a dry run's plan: it goes with --dry-run\n",
      ]);
    },
    SCENARIO,
  );
});
