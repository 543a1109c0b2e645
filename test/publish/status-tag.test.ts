// A station_status feed's ETag, made from its entries' digests: a function of the feed's bytes,
// whichever way the digests were gathered.
import { describe, expect, it } from "vitest";
import { gbfsStatusFiles } from "../../src/publish/gbfs-files.js";
import { sha1Of } from "../../src/publish/sha1.js";
import {
  DIGEST_SIZE,
  digestColumn,
  gatherDigests,
  putDigest,
  scatterDigests,
} from "../../src/publish/status-tag.js";

const entry = (id: number, bikes: number) =>
  Buffer.from(JSON.stringify({ station_id: String(id), num_vehicles_available: bikes }));

/** Both versions' feeds of one contract: their ETags, v2.3's first. */
function tags(bikes: readonly number[], updated = "2026-12-03T18:00:00Z", columns?: Buffer[]) {
  const entries = bikes.map((count, id) => [entry(id, count), entry(id, count + 100)]);
  const digests =
    columns ?? [0, 1].map((v) => digestColumn(entries.map((pair) => pair[v] as Uint8Array)));
  const files = gbfsStatusFiles("lyon", entries, digests, updated, 60);
  return [...new Set([...files.values()].map((file) => file.etag))];
}

describe("a station_status feed's tag", () => {
  it("is the same for the same bytes, and changes with any entry or the feed's own fields", () => {
    const first = tags([1, 2, 3]);
    expect(first).toHaveLength(2); // one per version, every path of a version sharing it
    expect(tags([1, 2, 3])).toEqual(first);
    const seen = new Set(first);
    for (const other of [
      tags([1, 2, 4]),
      tags([2, 1, 3]),
      tags([1, 2]),
      tags([1, 2, 3], "2026-12-03T18:01:00Z"),
    ])
      for (const tag of other) {
        expect(seen.has(tag), tag).toBe(false);
        seen.add(tag);
      }
  });

  it("is not the tag of a file of the feed's head, its entries' digests and its tail", () => {
    const one = entry(0, 1);
    const column = digestColumn([one]);
    const both = [column, column];
    const [feed] = gbfsStatusFiles("lyon", [[one, one]], both, null, 60).values();
    const body = feed?.body ?? [];
    const spelled = [body[0], column, body[body.length - 1]] as Uint8Array[];
    expect(feed?.etag).toMatch(/^"[\w-]{27}"$/);
    expect(feed?.etag).not.toBe(`"${sha1Of(spelled)}"`);
  });

  it("moves digests between a contract's column and the column of all stations, run by run", () => {
    // Two contracts mixed: a at 0, 1, 4; b at 2, 3, 5.
    const all = Buffer.alloc(6 * DIGEST_SIZE);
    const groups = { a: [0, 1, 4], b: [2, 3, 5] };
    const columns = Object.values(groups).map((group) =>
      digestColumn(group.map((station) => entry(station, station))),
    );
    Object.values(groups).forEach((group, at) => {
      scatterDigests(columns[at] as Buffer, group, all);
    });
    for (let station = 0; station < 6; station++) {
      const one = Buffer.alloc(DIGEST_SIZE);
      putDigest(one, 0, entry(station, station));
      expect(all.subarray(station * DIGEST_SIZE, (station + 1) * DIGEST_SIZE)).toEqual(one);
    }
    Object.values(groups).forEach((group, at) => {
      expect(gatherDigests(all, group)).toEqual(columns[at]);
    });
  });
});
