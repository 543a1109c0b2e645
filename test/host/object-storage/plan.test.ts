import { describe, expect, it } from "vitest";
import { objectKey, planPublish, type StoreRecord } from "../../../src/host/object-storage/plan.js";
import type {
  AnswerKind,
  PublishedAnswer,
} from "../../../src/host/object-storage/published-answer.js";
import type { Receipt } from "../../../src/host/object-storage/receipt.js";

const answer = (urlPath: string, kind: AnswerKind, etag = `"${urlPath}"`): PublishedAnswer => ({
  urlPath,
  kind,
  etag,
  contentType: "application/json",
  cacheControl: "public, max-age=60",
  read: async () => new Uint8Array(),
});

const NOTHING: StoreRecord = { listed: new Map(), receipt: null };

/** The store after a run that put every answer in place, as the publisher's receipt records it. */
function heldAfter(answers: readonly PublishedAnswer[], prefix = "p"): StoreRecord {
  const plan = planPublish(answers, NOTHING, prefix);
  const receipt: Receipt = { velodataPublish: 1, objects: {} };
  const listed = new Map<string, string>();
  for (const object of plan.uploads.flat()) {
    receipt.objects[object.key] = {
      kind: object.kind,
      fingerprint: object.fingerprint,
      etag: `etag-${object.key}`,
    };
    listed.set(object.key, `etag-${object.key}`);
  }
  return { listed, receipt };
}

const keys = (phases: readonly (readonly { key: string }[])[]) =>
  phases.map((phase) => phase.map((object) => object.key));

describe("planPublish", () => {
  const release = [
    answer("/contracts/dublin/gbfs/gbfs.json", "discovery"),
    answer("/vls/v3/stations", "list"),
    answer("/vls/v3/stations/dublin/42", "answer"),
    answer("/vls/v3/stations/dublin", "list"),
    answer("/vls/v3/stations/dublin/30", "answer"),
  ];

  it("uploads answers, then the lists that name them, then discovery files, each phase whole", () => {
    const plan = planPublish(release, NOTHING, "p");
    expect(keys(plan.uploads)).toEqual([
      ["p/vls/v3/stations/dublin/30", "p/vls/v3/stations/dublin/42"],
      ["p/vls/v3/stations", "p/vls/v3/stations/dublin"],
      ["p/contracts/dublin/gbfs/gbfs.json"],
    ]);
    expect(plan.deletions).toEqual([]);
  });

  it("uploads nothing when the store lists the ETags its receipt recorded for these bytes", () => {
    const plan = planPublish(release, heldAfter(release), "p");
    expect(plan.uploads).toEqual([]);
    expect(plan.unchanged).toHaveLength(release.length);
  });

  it("uploads only what changed, and what the store no longer holds as recorded", () => {
    const held = heldAfter(release);
    const listed = new Map(held.listed);
    listed.set("p/vls/v3/stations/dublin/30", "etag-someone-else-wrote"); // a stopped run, or a hand
    listed.delete("p/contracts/dublin/gbfs/gbfs.json");
    const next = release.map((item) =>
      item.urlPath === "/vls/v3/stations" ? answer(item.urlPath, "list", '"new"') : item,
    );
    const plan = planPublish(next, { ...held, listed }, "p");
    expect(keys(plan.uploads)).toEqual([
      ["p/vls/v3/stations/dublin/30"],
      ["p/vls/v3/stations"],
      ["p/contracts/dublin/gbfs/gbfs.json"],
    ]);
  });

  it("uploads again an object whose headers alone changed", () => {
    const held = heldAfter(release);
    const next = release.map((item) => ({ ...item, cacheControl: "public, max-age=30" }));
    expect(planPublish(next, held, "p").uploads.flat()).toHaveLength(release.length);
  });

  it("marks every object about to change pending, and trusts no pending entry", () => {
    const held = heldAfter(release);
    const next = release.map((item) =>
      item.kind === "answer" ? answer(item.urlPath, item.kind, '"new"') : item,
    );
    const plan = planPublish(next, held, "p");
    expect(plan.pendingReceipt.objects["p/vls/v3/stations/dublin/42"]).toEqual({ kind: "answer" });
    expect(plan.pendingReceipt.objects["p/vls/v3/stations"]).toEqual(
      held.receipt?.objects["p/vls/v3/stations"],
    );
    // The run stopped: the old bytes are still listed with their old ETag, but the entry is pending.
    const again = planPublish(release, { ...held, receipt: plan.pendingReceipt }, "p");
    expect(keys(again.uploads)).toEqual([
      ["p/vls/v3/stations/dublin/30", "p/vls/v3/stations/dublin/42"],
    ]);
  });

  it("deletes what left the release, discovery files first, and never what velodata did not write", () => {
    const held = heldAfter(release);
    const listed = new Map(held.listed).set("p/someone-elses.html", "x");
    const remaining = release.filter(
      (item) =>
        item.urlPath === "/vls/v3/stations/dublin/30" || item.urlPath === "/vls/v3/stations",
    );
    const plan = planPublish(remaining, { ...held, listed }, "p");
    expect(plan.deletions).toEqual([
      ["p/contracts/dublin/gbfs/gbfs.json"],
      ["p/vls/v3/stations/dublin"],
      ["p/vls/v3/stations/dublin/42"],
    ]);
    expect(plan.uploads).toEqual([]);
  });

  it("deletes what left the release even when the store's listing leaves it out", () => {
    const held = heldAfter(release);
    const listed = new Map(held.listed);
    listed.delete("p/vls/v3/stations/dublin"); // a paging bug or a lagging index
    const remaining = release.filter((item) => item.urlPath !== "/vls/v3/stations/dublin");
    const plan = planPublish(remaining, { ...held, listed }, "p");
    expect(plan.deletions).toEqual([["p/vls/v3/stations/dublin"]]);
  });

  it("stores the gzip variant with its encoding when the answer has one", async () => {
    const [plain] = planPublish([answer("/a", "answer")], NOTHING, "").uploads.flat();
    const [zipped] = planPublish(
      [
        {
          ...answer("/a", "answer"),
          variants: [
            { encoding: "br", etag: '"br"', read: async () => new Uint8Array([2]) },
            { encoding: "gzip", etag: '"gz"', read: async () => new Uint8Array([1]) },
          ],
        },
      ],
      NOTHING,
      "",
    ).uploads.flat();
    expect(plain?.contentEncoding).toBeUndefined();
    expect(zipped?.contentEncoding).toBe("gzip");
    expect(zipped?.fingerprint).not.toBe(plain?.fingerprint);
    expect(await zipped?.read()).toEqual(new Uint8Array([1]));
  });

  it("keys an answer by its decoded URL path under the prefix, extension-less", () => {
    expect(objectKey("", "/vls/v3/stations")).toBe("vls/v3/stations");
    expect(objectKey("site/v1", "/vls/v3/stations/saint%20%C3%A9tienne/4")).toBe(
      "site/v1/vls/v3/stations/saint étienne/4",
    );
  });

  it("refuses two answers on one key and an answer on the receipt's key", () => {
    expect(() => planPublish([answer("/a", "answer"), answer("/a", "list")], NOTHING, "")).toThrow(
      "two answers publish to the same key a",
    );
    expect(() => planPublish([answer("/.velodata-publish.json", "answer")], NOTHING, "")).toThrow(
      "receipt",
    );
  });
});

describe("planPublish, with objects that left the release", () => {
  const release = [
    answer("/contracts/dublin/gbfs/gbfs.json", "discovery"),
    answer("/vls/v3/stations/dublin", "list"),
    answer("/vls/v3/stations/dublin/30", "answer"),
    answer("/vls/v3/stations/dublin/42", "answer"),
  ];
  const LEFT = new Date("2026-01-05T08:00:00.000Z");
  const later = (seconds: number) => new Date(LEFT.getTime() + seconds * 1000);
  const gone = "p/vls/v3/stations/dublin/30";
  const remaining = release.filter((item) => item.urlPath !== "/vls/v3/stations/dublin/30");

  it("keeps one that just left, saying when it left, and deletes nothing", () => {
    const held = heldAfter(release);
    const plan = planPublish(remaining, held, "p", { now: LEFT, keepRemoved: 3600 });
    expect(plan.deletions).toEqual([]);
    expect(plan.keptForLater).toEqual([
      { key: gone, entry: { ...held.receipt?.objects[gone], removedAt: LEFT.toISOString() } },
    ]);
    expect(plan.newlyRemoved).toBe(1);
  });

  it("deletes it at the first run keepRemoved seconds after it left, not before", () => {
    const held = heldAfter(release);
    const first = planPublish(remaining, held, "p", { now: LEFT, keepRemoved: 3600 });
    const objects = { ...held.receipt?.objects };
    for (const { key, entry } of first.keptForLater) objects[key] = entry;
    const record = { ...held, receipt: { velodataPublish: 1 as const, objects } };

    const early = planPublish(remaining, record, "p", { now: later(3599), keepRemoved: 3600 });
    expect(early.deletions).toEqual([]);
    // Still the time it left, not the time of this run: the period does not start again.
    expect(early.keptForLater.map(({ entry }) => entry.removedAt)).toEqual([LEFT.toISOString()]);
    expect(early.newlyRemoved).toBe(0);

    const due = planPublish(remaining, record, "p", { now: later(3600), keepRemoved: 3600 });
    expect(due.deletions).toEqual([[gone]]);
    expect(due.keptForLater).toEqual([]);
  });

  it("deletes at once what must stop being public, kept or just removed", () => {
    const held = heldAfter(release);
    const keyedOnes = (key: string) => key.startsWith("p/vls/");
    const plan = planPublish(release.slice(0, 1), held, "p", {
      now: LEFT,
      keepRemoved: 3600,
      atOnce: keyedOnes,
    });
    expect(plan.deletions).toEqual([
      ["p/vls/v3/stations/dublin"],
      ["p/vls/v3/stations/dublin/30", "p/vls/v3/stations/dublin/42"],
    ]);
    expect(plan.keptForLater).toEqual([]);
  });

  it("takes one back into the release before its time as it stands: no upload, no deletion", () => {
    const held = heldAfter(release);
    const entry = held.receipt?.objects[gone];
    const objects = {
      ...held.receipt?.objects,
      [gone]: { ...entry, removedAt: LEFT.toISOString() },
    };
    const record = { ...held, receipt: { velodataPublish: 1 as const, objects } } as StoreRecord;
    const plan = planPublish(release, record, "p", { now: later(60), keepRemoved: 3600 });
    expect(plan.uploads).toEqual([]);
    expect(plan.deletions).toEqual([]);
    expect(plan.keptForLater).toEqual([]);
    expect(plan.unchanged.map(({ key }) => key)).toContain(gone);
  });
});
