// The cron line docs/object-storage.md gives, run as written (paths and store swapped for a test's):
// a typo in the static source must not stop the minute's states reaching the store, as it does
// not stop them reaching the tree.
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BIN,
  dublin42ReportedAt,
  fixtureCopy,
  ROOT,
  runCli,
  runShell,
  tempDir,
} from "../helpers.js";
import { BUCKET, startS3WithCredentials, type TestS3 } from "../host/object-storage/s3-server.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3WithCredentials();
});
afterAll(() => s3.close());

/** The crontab line of docs/object-storage.md, without its schedule. */
function documentedCronCommand(): string {
  const page = readFileSync(join(ROOT, "docs/object-storage.md"), "utf8");
  const line = /^\* \* \* \* \* (.*velodata publish.*)$/m.exec(page)?.[1];
  if (!line) throw new Error("no cron line in docs/object-storage.md");
  return line;
}

/** Dublin #42's last report, as the store's GBFS station_status says it. */
async function reportedInStore(prefix: string): Promise<string | undefined> {
  const feed = await s3.bytes(`${prefix}/contracts/dublin/gbfs/v3/station_status.json`);
  const stations: { station_id: string; last_reported: string }[] = JSON.parse(feed.toString()).data
    .stations;
  return stations.find(({ station_id }) => station_id === "42")?.last_reported;
}

describe("the cron line of docs/object-storage.md", () => {
  it("publishes the minute's states while the static source's edit is refused", async () => {
    const source = await fixtureCopy();
    const work = await tempDir();
    const out = join(work, "out");
    const build = [
      "build",
      "--source",
      source,
      "--out",
      out,
      "--base-url",
      "https://api.example.net",
    ];
    expect((await runCli(build)).code).toBe(0);
    const command = documentedCronCommand()
      .replaceAll("/usr/local/bin/velodata", `${process.execPath} ${BIN}`)
      .replaceAll("/tmp/velodata-publish.lock", join(work, "publish.lock"))
      .replaceAll("/srv/velodata/source", source)
      .replaceAll("/srv/velodata/out", out)
      .replaceAll("s3://my-bucket/velodata", `s3://${BUCKET}/cron --endpoint ${s3.endpoint}`);
    expect((await runShell(command)).code).toBe(0);
    expect(await reportedInStore("cron")).toBe("2025-02-08T16:44:06Z");

    // The next minute: Dublin #42 reports again, and stations.csv has a typo.
    const states = join(source, "states.json");
    await writeFile(
      states,
      dublin42ReportedAt(await readFile(states, "utf8"), "2025-02-08T16:45:06Z"),
    );
    const csv = join(source, "stations.csv");
    await writeFile(
      csv,
      (await readFile(csv, "utf8")).replace(/\ntoulouse,55,(.*),15,\r/, "\ntoulouse,55,$1,ten,\r"),
    );
    const minute = await runShell(command);
    expect(minute.stderr).toContain('capacity: expected number, got "ten"');
    expect(await reportedInStore("cron")).toBe("2025-02-08T16:45:06Z");
  }, 120_000);
});
