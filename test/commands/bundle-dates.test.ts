// The bundle's files, once unzipped, say when their data is from: the data package's `created`,
// not a fixed date decades off that a file manager shows, sorts and compares (rsync -u, make).
import { readFile, utimes } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

const CENTRAL_ENTRY = 0x02014b50;

/** Each entry's name and modification time (DOS, to two seconds), from the zip's central directory. */
function entryDates(zip: Buffer): { name: string; date: string }[] {
  const entries: { name: string; date: string }[] = [];
  for (let at = zip.indexOf(Buffer.from("PK\x01\x02", "latin1")); at >= 0; ) {
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) break;
    const time = zip.readUInt16LE(at + 12);
    const day = zip.readUInt16LE(at + 14);
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const date = new Date(
      Date.UTC(
        (day >> 9) + 1980,
        ((day >> 5) & 15) - 1,
        day & 31,
        time >> 11,
        (time >> 5) & 63,
        (time & 31) * 2,
      ),
    );
    entries.push({
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
      date: date.toISOString(),
    });
    at = next;
  }
  return entries;
}

describe("the static bundle's files are dated when the data last changed", () => {
  it("dates every entry as the data package's created, the source files' newest time", async () => {
    const source = await fixtureCopy();
    const earlier = new Date("2024-01-01T00:00:00Z");
    const changed = new Date("2024-03-09T10:20:30Z");
    for (const file of ["contracts.json", "stations.csv"])
      await utimes(join(source, file), earlier, earlier);
    await utimes(join(source, "parkings.json"), changed, changed);
    const out = join(await tempDir(), "out");
    // Far from UTC: a time written in the machine's zone would move the entries' dates.
    const result = await runCli(["build", "--source", source, "--out", out], undefined, {
      TZ: "Asia/Tokyo",
    });
    expect(result.code).toBe(0);

    const zip = await readFile(join(out, "download/velodata-static.zip"));
    const created = JSON.parse(
      Buffer.from(unzipSync(zip)["datapackage.json"] as Uint8Array).toString("utf8"),
    ).created;
    expect(created).toBe("2024-03-09T10:20:30Z");
    // A zip's time holds even seconds, in no time zone: written as UTC, whatever the machine's.
    expect(entryDates(zip)).toEqual(
      [
        "datapackage.json",
        "contracts.csv",
        "contracts.json",
        "stations.csv",
        "stations.json",
        "parkings.csv",
        "parkings.json",
      ].map((name) => ({ name, date: "2024-03-09T10:20:30.000Z" })),
    );
  });
});
