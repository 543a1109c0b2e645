// The static source's fingerprint: a content hash, found again without reading the files when they
// are as the last run saw them, and never trusted so for files changed too close to that sighting.
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { staticSourceFingerprint } from "../../src/source/source-fingerprint.js";
import { fixtureCopy } from "../helpers.js";

/** What a last run recorded: a fingerprint no content makes, so that its return shows no read. */
const RECORDED = "recorded by the last run";

describe("staticSourceFingerprint", () => {
  it("gives the last run's fingerprint, unread, for files as it saw them long enough after their change", async () => {
    const dir = await fixtureCopy();
    const { fingerprint, seen } = staticSourceFingerprint(dir);
    expect(staticSourceFingerprint(dir).fingerprint).toBe(fingerprint);
    const later = { ...seen, at: Date.now() + 60_000 };
    expect(staticSourceFingerprint(dir, { fingerprint: RECORDED, seen: later }).fingerprint).toBe(
      RECORDED,
    );
  });

  it("reads the files again when one was rewritten, even to the same size and modification time", async () => {
    const dir = await fixtureCopy();
    const file = join(dir, "contracts.json");
    // A whole second, which utimes puts back to the nanosecond.
    const mtime = new Date("2026-01-05T08:00:00Z");
    await utimes(file, mtime, mtime);
    const { fingerprint, seen } = staticSourceFingerprint(dir);
    const text = await readFile(file, "utf8");
    // An edit of one letter, its time put back: only the status change time tells.
    await writeFile(file, text.replace('"dublin"', '"dubliN"'));
    await utimes(file, mtime, mtime);
    expect((await stat(file, { bigint: true })).mtimeNs).toBe(BigInt(mtime.getTime()) * 1_000_000n);
    const later = { ...seen, at: Date.now() + 60_000 };
    const again = staticSourceFingerprint(dir, { fingerprint: RECORDED, seen: later });
    expect(again.fingerprint).not.toBe(RECORDED);
    expect(again.fingerprint).not.toBe(fingerprint);
    expect(again.seen.signature).not.toBe(seen.signature);
  });

  it("reads the files again when they changed less than two seconds before the last run saw them", async () => {
    const dir = await fixtureCopy();
    const { fingerprint, seen } = staticSourceFingerprint(dir);
    // The copy was just written: a change in the same clock tick would leave the same signature.
    const racy = staticSourceFingerprint(dir, { fingerprint: RECORDED, seen });
    expect(racy.fingerprint).toBe(fingerprint);
  });

  it("reads the files again an hour after it last did, where stat may not follow writes", async () => {
    const dir = await fixtureCopy();
    const { seen } = staticSourceFingerprint(dir);
    const later = { ...seen, at: Date.now() + 60_000 };
    const kept = staticSourceFingerprint(dir, { fingerprint: RECORDED, seen: later });
    expect(kept.seen.readAt).toBe(seen.readAt);
    const longAgo = { ...later, readAt: Date.now() - 3600_000 };
    const read = staticSourceFingerprint(dir, { fingerprint: RECORDED, seen: longAgo });
    expect(read.fingerprint).not.toBe(RECORDED);
    expect(read.seen.readAt).toBe(read.seen.at);
    // A state of an older velodata, without the time of its read: read.
    const { readAt: _, ...older } = later;
    expect(
      staticSourceFingerprint(dir, { fingerprint: RECORDED, seen: older }).fingerprint,
    ).not.toBe(RECORDED);
  });
});
