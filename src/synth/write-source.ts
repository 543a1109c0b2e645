// Writes a synthetic network as a source folder, record by record: a million stations never make one string.
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { StationState } from "../model/station-state.js";
import type { Network } from "./network.js";

// Pieces of about this size: one write each, instead of one per record.
const PIECE = 1 << 20;

/** `{"<key>":[...]}`, one record per line, as a stream of pieces. */
function* jsonRecords(key: string, records: readonly unknown[]): Generator<string> {
  let piece = `{"${key}":[\n`;
  for (let index = 0; index < records.length; index++) {
    piece += `${index === 0 ? "" : ",\n"}${JSON.stringify(records[index])}`;
    if (piece.length < PIECE) continue;
    yield piece;
    piece = "";
  }
  yield `${piece}\n]}\n`;
}

/**
 * A file written beside its place, then renamed there: a synth stopped part-way leaves whole files
 * (a states file cut short would read as an exporter's broken one), and at most a `.partial`.
 */
async function writeWhole(path: string, pieces: Iterable<string>): Promise<void> {
  const partial = `${path}.partial`;
  try {
    await writeFile(partial, pieces);
  } catch (cause) {
    await rm(partial, { force: true }); // a full disk: what it took is given back
    throw cause;
  }
  await rename(partial, path);
}

/** The network's files, in the order writeNetwork writes them. */
const NETWORK_FILES = ["contracts.json", "stations.json", "parkings.json"] as const;

/** The name of the states file of a minute: the first is the source's own `states.json`. */
export const statesFileOf = (minute: number) =>
  minute === 0 ? "states.json" : `states-${minute}.json`;

/**
 * `mkdir -p` one folder at a time: Node's recursive mkdir says ENOENT where the system said EROFS
 * (a read-only file system read as "does not exist").
 */
async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(dir) === dir) throw cause;
    await makeFolder(dirname(dir));
    // Once: where mkdir says ENOENT under a folder that exists (/proc), a retry would loop forever.
    await mkdir(dir).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== "EEXIST") throw again;
    });
  }
}

export async function writeNetwork(dir: string, network: Network): Promise<void> {
  await makeFolder(dir);
  const [contracts, stations, parkings] = NETWORK_FILES;
  await writeWhole(join(dir, contracts), jsonRecords("contracts", network.contracts));
  await writeWhole(join(dir, stations), jsonRecords("stations", network.stations));
  await writeWhole(join(dir, parkings), jsonRecords("parkings", network.parkings));
}

export async function writeMinute(
  dir: string,
  minute: number,
  states: readonly StationState[],
): Promise<string> {
  const path = join(dir, statesFileOf(minute));
  await writeWhole(path, jsonRecords("states", states));
  return path;
}

/**
 * Removes what writeNetwork and writeMinute wrote in `dir` for minutes 0 to `minutes` (a synth that
 * failed part-way), quietly: the error that stopped it is the one to say.
 */
export async function removeSource(dir: string, minutes: number): Promise<void> {
  const names: string[] = [...NETWORK_FILES];
  for (let minute = 0; minute <= minutes; minute++) names.push(statesFileOf(minute));
  await Promise.all(names.map((name) => rm(join(dir, name), { force: true }).catch(() => {})));
}
