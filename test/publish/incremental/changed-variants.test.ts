// A cron refresh's changed lists and feeds: where contracts' lists are small (on average), each is
// compressed whole and so is the list of all stations; the small bodies go to what compresses
// them apart (the cron refresh's worker thread), the others to the thread pool.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  compressBody,
  compressHere,
  type Levels,
  levelsFor,
  SMALL_BODY,
  worthCompressing,
} from "../../../src/publish/compress.js";
import {
  ChangedVariants,
  type ChangedVariantsOptions,
  PIECES_PAY_FROM,
  piecesPay,
} from "../../../src/publish/incremental/changed-variants.js";
import type { ListKind } from "../../../src/publish/incremental/splice-stations.js";
import { publish } from "../../../src/publish/publish.js";
import { refreshRelease } from "../../../src/publish/refresh-release.js";
import type { ReleaseFile } from "../../../src/publish/release.js";
import { type Dataset, stationKey } from "../../../src/source/dataset.js";
import { JOINED_BROTLI_START } from "../../helpers.js";
import { fixtureDataset, GENERATED_AT } from "../publish-helpers.js";

/**
 * The fixtures refreshed with a station of every contract changed (but `unchanged`'s): every list
 * changes (but that contract's).
 */
async function refreshed(unchanged?: string) {
  const dataset = await fixtureDataset();
  const states = new Map(dataset.states);
  for (const contract of dataset.contracts) {
    if (contract.name === unchanged) continue;
    const station = dataset.stations.find((one) => one.contract === contract.name);
    const key = station && stationKey(station.contract, station.number);
    const old = key && states.get(key);
    if (key && old) states.set(key, { ...old, main: { ...old.main, stands: 1 } });
  }
  const first = await publish(dataset, { generatedAt: GENERATED_AT });
  const next: Dataset = { ...dataset, states };
  const refresh = await refreshRelease(first.release, next, first.cache, {
    generatedAt: new Date("2026-11-20T08:17:00Z"),
    refreshSeconds: 60,
  });
  if (!refresh?.lists) throw new Error("the fixtures' lists are made of their contracts'");
  return refresh;
}

/**
 * Each changed file added as a cron refresh adds it, then the variants made. `unchanged`: a
 * contract whose stations keep their states; `itsPieces`: its lists given for pieces, as a cron
 * refresh gives them (addPieces).
 */
async function variantsOf(
  options: ChangedVariantsOptions,
  { unchanged, itsPieces = false }: { unchanged?: string; itsPieces?: boolean } = {},
) {
  const refresh = await refreshed(unchanged);
  const kinds = new Map<string, ListKind>();
  for (const layout of refresh.lists ?? []) {
    kinds.set(layout.all, "all");
    for (const contract of layout.contracts) kinds.set(contract, "contract");
  }
  const variants = new ChangedVariants(options);
  for (const [path, file] of refresh.changed) variants.add(path, file, kinds.get(path) ?? "feed");
  for (const [path, kind] of kinds) {
    if (kind !== "contract" || refresh.changed.has(path) || !itsPieces) continue;
    variants.addPieces(path, refresh.release.files.get(path) as ReleaseFile);
  }
  return { refresh, kinds, made: new Map(await variants.finish(refresh.lists)) };
}

const whole = (file: ReleaseFile) => compressBody(file.body, levelsFor(file, "refresh"));

describe("piecesPay", () => {
  it("says contracts' lists pay being made into pieces from PIECES_PAY_FROM bytes on average", () => {
    expect(piecesPay(50 * PIECES_PAY_FROM, 50)).toBe(true);
    expect(piecesPay(50 * PIECES_PAY_FROM - 1, 50)).toBe(false);
    expect(piecesPay(1 << 30, 0)).toBe(false);
  });
});

describe("ChangedVariants", () => {
  it("compresses contracts' lists and their lists of all whole, without pieces", async () => {
    const { refresh, kinds, made } = await variantsOf({ pieces: false });
    const worth = [...refresh.changed].filter(([, file]) => worthCompressing(file));
    expect([...made.keys()].sort()).toEqual(worth.map(([path]) => path).sort());
    for (const [path, file] of made) {
      const plain = Buffer.concat(file.body);
      expect(gunzipSync(file.variants?.gzip as Buffer).equals(plain), path).toBe(true);
      expect(brotliDecompressSync(file.variants?.br as Buffer).equals(plain), path).toBe(true);
      if (kinds.get(path) === undefined) continue;
      // A list's or a list of all's: compressBody's bytes, not joined of pieces.
      const expected = await whole(file);
      expect(file.variants?.gzip.equals(expected.gzip), path).toBe(true);
      expect(file.variants?.br.equals(expected.br), path).toBe(true);
    }
    expect([...kinds.values()].filter((kind) => kind === "all")).toHaveLength(2);
  });

  it("hands the small bodies to `small`, the lists of all to the thread pool", async () => {
    const asked: number[] = [];
    const small = async (body: readonly Uint8Array[], levels: Levels) => {
      asked.push(Buffer.concat(body).length);
      return compressHere(body, levels);
    };
    const { refresh, kinds, made } = await variantsOf({ pieces: false, small });
    const expected = [...refresh.changed]
      .filter(([path, file]) => worthCompressing(file) && kinds.get(path) !== "all")
      .filter(([, file]) => file.size <= SMALL_BODY);
    // Bodies with equal bytes are compressed once.
    const distinct = new Map(expected.map(([, file]) => [file.etag, file.size]));
    expect(asked.sort()).toEqual([...distinct.values()].sort());
    expect(asked.length).toBeGreaterThan(10);
    for (const [path, file] of made) {
      const pooled = await whole(file);
      expect(file.variants?.br.equals(pooled.br), path).toBe(true);
    }
  });

  it("makes contracts' lists into pieces by default, their lists of all joined of them", async () => {
    const { made } = await variantsOf({});
    const all = made.get("/vls/v3/stations") as ReleaseFile;
    expect([...(all.variants?.br.subarray(0, 6) ?? [])]).toEqual(JOINED_BROTLI_START);
    expect(all.variants?.br.equals((await whole(all)).br)).toBe(false);
  });

  it("joins the lists of all of pieces also when a contract's list did not change, given for its pieces", async () => {
    const unchanged = "dublin";
    const given = await variantsOf({}, { unchanged, itsPieces: true });
    expect(given.refresh.changed.has(`/vls/v3/contracts/${unchanged}/stations`)).toBe(false);
    for (const path of ["/vls/v3/stations", "/vls/v1/stations"]) {
      const all = given.made.get(path) as ReleaseFile;
      const plain = Buffer.concat(all.body);
      expect([...(all.variants?.br.subarray(0, 6) ?? [])], path).toEqual(JOINED_BROTLI_START);
      expect(gunzipSync(all.variants?.gzip as Buffer).equals(plain), path).toBe(true);
      expect(brotliDecompressSync(all.variants?.br as Buffer).equals(plain), path).toBe(true);
    }
    // Its list gets no variants of its own: it is not written.
    expect([...given.made.keys()].some((path) => path.includes(`/${unchanged}/`))).toBe(false);
    // Without its pieces, the list of all is compressed whole.
    const { made } = await variantsOf({}, { unchanged });
    const all = made.get("/vls/v3/stations") as ReleaseFile;
    expect(all.variants?.br.equals((await whole(all)).br)).toBe(true);
  });
});
