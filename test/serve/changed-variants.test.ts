// The variants a server makes after a refresh's swap: every changed answer's, each decoding to its
// bytes; a list of all stations made of its contracts' lists compressed once, as a cron refresh does.
import { brotliDecompressSync, constants, crc32, deflateRawSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliOfList } from "../../src/publish/brotli-list.js";
import {
  contractListPieces,
  gzipOfList,
  levelsFor,
  worthCompressing,
} from "../../src/publish/compress.js";
import { PIECES_PAY_FROM } from "../../src/publish/incremental/changed-variants.js";
import { listLayouts } from "../../src/publish/list-layout.js";
import { publish } from "../../src/publish/publish.js";
import { refreshRelease } from "../../src/publish/refresh-release.js";
import type { ReleaseFile } from "../../src/publish/release.js";
import { SURFACES } from "../../src/publish/station-files.js";
import { changedVariants, piecesPayFor } from "../../src/serve/changed-variants.js";
import { type Dataset, stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT } from "../publish/publish-helpers.js";

const TIMING = { generatedAt: new Date("2026-11-20T08:17:00Z"), refreshSeconds: 60 };

/**
 * A station of every contract (but `unchanged`) reports again, with another count: every
 * contract's lists change (but that one's).
 */
function oneChangedInEach(dataset: Dataset, unchanged?: string): Dataset {
  const states = new Map(dataset.states);
  for (const contract of dataset.contracts) {
    if (contract.name === unchanged) continue;
    const station = dataset.stations.find((one) => one.contract === contract.name);
    const key = station && stationKey(station.contract, station.number);
    const old = key && states.get(key);
    if (!key || !old) continue;
    states.set(key, {
      ...old,
      lastUpdate: "2026-11-20T08:17:00Z",
      main: { ...old.main, stands: 1 },
    });
  }
  return { ...dataset, states };
}

async function refreshed(dataset: Dataset, unchanged?: string) {
  const first = await publish(dataset, { generatedAt: GENERATED_AT });
  const refresh = await refreshRelease(
    first.release,
    oneChangedInEach(dataset, unchanged),
    first.cache,
    TIMING,
  );
  if (!refresh) throw new Error("the cache was made for these stations");
  return refresh;
}

function expectDecoding(
  made: ReadonlyMap<string, ReleaseFile>,
  changed: ReadonlyMap<string, ReleaseFile>,
) {
  const worth = [...changed].filter(([, file]) => worthCompressing(file));
  expect([...made.keys()].sort()).toEqual(worth.map(([path]) => path).sort());
  for (const [path, file] of made) {
    const plain = Buffer.concat(file.body);
    expect(file.etag, path).toBe(changed.get(path)?.etag);
    expect(gunzipSync(file.variants?.gzip ?? Buffer.alloc(0)).equals(plain), path).toBe(true);
    expect(brotliDecompressSync(file.variants?.br ?? Buffer.alloc(0)).equals(plain), path).toBe(
      true,
    );
  }
}

/** The brotli a list of all stations gets from its contracts' lists (each compressed alone, joined). */
async function brotliFromContracts(contracts: readonly ReleaseFile[]): Promise<Buffer> {
  const pieces = await Promise.all(
    contracts.map((list) => contractListPieces(list.body, levelsFor(list, "refresh"))),
  );
  return brotliOfList(pieces.map((piece) => piece.br));
}

/** The gzip a list of all stations gets from its contracts' lists (each deflated alone, joined). */
function fromContracts(all: ReleaseFile, contracts: readonly ReleaseFile[]): Buffer {
  const parts = contracts.map((list) => {
    const items = Buffer.concat(list.body.slice(1, -1)); // between its brackets
    const level = levelsFor(list, "refresh").gzip;
    return {
      piece: deflateRawSync(items, { level, finishFlush: constants.Z_FULL_FLUSH }),
      crc: crc32(items),
      size: items.length,
    };
  });
  return gzipOfList(parts, all.size);
}

describe("a server's changed variants", () => {
  it("compress a list of all stations from its contracts' lists when each contract's stations are neighbours", async () => {
    const refresh = await refreshed(await fixtureDataset());
    expect(refresh.lists?.map((layout) => layout.all)).toEqual([
      "/vls/v3/stations",
      "/vls/v1/stations",
    ]);
    const made = await changedVariants(refresh.changed, refresh.release.files, refresh.lists);
    expectDecoding(made, refresh.changed);

    // v3: every contract's list is big enough to compress, so the list of all is made of them.
    const [v3] = refresh.lists ?? [];
    const file = (path: string) => refresh.changed.get(path) as ReleaseFile;
    const contracts = (v3?.contracts ?? []).map(file);
    const expected = fromContracts(file("/vls/v3/stations"), contracts);
    const all = made.get("/vls/v3/stations")?.variants;
    expect(all?.gzip.equals(expected)).toBe(true);
    expect(all?.br.equals(await brotliFromContracts(contracts))).toBe(true);

    // v1: some contracts' lists are too small to have variants of their own; the list of all is
    // joined of their pieces all the same.
    const v1 = refresh.lists?.[1]?.contracts ?? [];
    const small = v1.filter((path) => !worthCompressing(file(path)));
    expect(small.length).toBeGreaterThan(0);
    expect(small.filter((path) => made.has(path))).toEqual([]);
    const allV1 = made.get("/vls/v1/stations")?.variants;
    expect(allV1?.br.equals(await brotliFromContracts(v1.map(file)))).toBe(true);
  });

  it("join a list of all stations also of the lists of a contract that did not change, found in the release", async () => {
    const refresh = await refreshed(await fixtureDataset(), "dublin");
    const [v3] = refresh.lists ?? [];
    const kept = v3?.contracts.find((path) => path.endsWith("/dublin")) as string;
    expect(refresh.changed.has(kept)).toBe(false);
    const made = await changedVariants(refresh.changed, refresh.release.files, refresh.lists);
    expectDecoding(made, refresh.changed);
    const file = (path: string) => refresh.release.files.get(path) as ReleaseFile;
    const contracts = (v3?.contracts ?? []).map(file);
    const all = made.get("/vls/v3/stations")?.variants;
    expect(all?.gzip.equals(fromContracts(file("/vls/v3/stations"), contracts))).toBe(true);
    expect(all?.br.equals(await brotliFromContracts(contracts))).toBe(true);
    // Without the release's files to find it in, the list of all is compressed whole.
    const alone = await changedVariants(refresh.changed, new Map(), refresh.lists);
    expect(alone.get("/vls/v3/stations")?.variants?.br.equals(all?.br as Buffer)).toBe(false);
  });

  it("compress each list whole when a contract's stations are apart", async () => {
    const dataset = await fixtureDataset();
    // Lyon's first station moved to the end: its stations are no longer neighbours.
    const lyon = dataset.stations.findIndex((station) => station.contract === "lyon");
    const stations = dataset.stations.filter((_, index) => index !== lyon);
    stations.push(dataset.stations[lyon] as (typeof stations)[number]);
    const refresh = await refreshed({ ...dataset, stations });
    expect(refresh.lists).toBeUndefined();
    expectDecoding(
      await changedVariants(refresh.changed, refresh.release.files, refresh.lists),
      refresh.changed,
    );
  });
});

describe("piecesPayFor", () => {
  it("says a refresh's contracts' lists pay being pieces only when big enough on average", async () => {
    const refresh = await refreshed(await fixtureDataset());
    // The fixtures' contracts are a few stations each.
    expect(piecesPayFor(refresh.changed, refresh.lists)).toBe(false);
    expect(piecesPayFor(refresh.changed, undefined)).toBe(false);
    const [v3] = refresh.lists ?? [];
    const all = refresh.changed.get(v3?.all ?? "") as ReleaseFile;
    const big = new Map(refresh.changed);
    big.set(v3?.all ?? "", { ...all, size: (v3?.contracts.length ?? 0) * PIECES_PAY_FROM });
    expect(piecesPayFor(big, refresh.lists)).toBe(true);
  });
});

describe("listLayouts", () => {
  it("say each list of all as its contracts' lists in the order of their first station", () => {
    const groups = new Map([
      ["nantes", [3, 4]],
      ["lyon", [0, 1, 2]],
    ]);
    expect(listLayouts(groups, SURFACES)).toEqual([
      { all: "/vls/v3/stations", contracts: ["/vls/v3/stations/lyon", "/vls/v3/stations/nantes"] },
      { all: "/vls/v1/stations", contracts: ["/vls/v1/stations/lyon", "/vls/v1/stations/nantes"] },
    ]);
    expect(listLayouts(new Map([...groups, ["lyon", [0, 2, 5]]]), SURFACES)).toBeUndefined();
  });
});
