// The state a cron refresh carries from one run to the next (pure): the validated static records,
// each station's last state, and where each station's bytes sit in the lists of all stations.

import type { Availabilities } from "../../model/api.js";
import type { Contract } from "../../model/contract.js";
import type { Station } from "../../model/station.js";
import { type Dataset, type LiveState, stationKey } from "../../source/dataset.js";
import type { StaticSource } from "../../source/load-source.js";
import type { Problem, Sourced } from "../../source/problems.js";
import type { Release } from "../release.js";
import type { StationCache } from "../station-files.js";

/** Another format (an older velodata's) is ignored: the next refresh renders everything. */
export const REFRESH_STATE_FORMAT = 2;

export interface RefreshState {
  format: typeof REFRESH_STATE_FORMAT;
  /** The release the tree held when this was written: any other release makes it stale. */
  release: string;
  baseUrl: string;
  /** staticSourceFingerprint of the source folder the release was made from. */
  source: string;
  parkings: number;
  contracts: Sourced<Contract>[];
  stations: Sourced<Station>[];
  /** Warnings about the static source, printed again by each refresh as a full read would. */
  staticProblems: Problem[];
  /** Aligned with `stations`: its state in that release (packed), null when it had none. */
  states: (PackedState | null)[];
  /** The answers that are not the stations' (contracts, parkings, downloads…). */
  staticPaths: string[];
  /** Per station surface: the byte offset of each station in the list of all stations. */
  offsets: number[][];
}

/** The part that changes only with the static source: kept on disk while it does not change. */
export type StaticState = Pick<
  RefreshState,
  | "format"
  | "baseUrl"
  | "source"
  | "parkings"
  | "contracts"
  | "stations"
  | "staticProblems"
  | "staticPaths"
>;

/** The part each run writes again; `static` is the checksum of the static part it goes with. */
export type MinuteState = Pick<RefreshState, "format" | "release" | "states" | "offsets"> & {
  static: string;
};

/** The two parts of a state, each written to its own file. */
export function splitState(state: RefreshState): {
  fixed: StaticState;
  minute: Omit<MinuteState, "static">;
} {
  const { release, states, offsets, ...fixed } = state;
  return { fixed, minute: { format: state.format, release, states, offsets } };
}

/** A LiveState as a short array: the file holds one per station. */
type PackedState = [string, boolean, string | null, number[], number[] | null];

const AVAILABILITIES: readonly (keyof Availabilities)[] = [
  "bikes",
  "stands",
  "mechanicalBikes",
  "electricalBikes",
  "electricalInternalBatteryBikes",
  "electricalRemovableBatteryBikes",
];

const packAvailabilities = (a: Availabilities): number[] => AVAILABILITIES.map((key) => a[key]);

function unpackAvailabilities(numbers: readonly number[]): Availabilities {
  const a = {} as Availabilities;
  AVAILABILITIES.forEach((key, index) => {
    a[key] = numbers[index] ?? 0;
  });
  return a;
}

function pack(state: LiveState): PackedState {
  return [
    state.status,
    state.connected,
    state.lastUpdate,
    packAvailabilities(state.main),
    state.overflow && packAvailabilities(state.overflow),
  ];
}

export function unpackState(packed: PackedState | null | undefined): LiveState | undefined {
  if (!packed) return undefined;
  const [status, connected, lastUpdate, main, overflow] = packed;
  return {
    status: status as LiveState["status"],
    connected,
    lastUpdate,
    main: unpackAvailabilities(main),
    overflow: overflow && unpackAvailabilities(overflow),
  };
}

export interface RefreshStateInput {
  release: Release;
  baseUrl: string;
  source: string;
  staticSource: StaticSource;
  staticProblems: readonly Problem[];
  dataset: Dataset;
  /** The release's station renderings, one file per station surface. */
  stations: StationCache;
  surfaces: number;
}

export function refreshStateOf(input: RefreshStateInput): RefreshState {
  const { release, dataset } = input;
  const states = dataset.stations.map((station) => {
    const state = dataset.states.get(stationKey(station.contract, station.number));
    return state ? pack(state) : null;
  });
  const offsets: number[][] = [];
  for (let surface = 0; surface < input.surfaces; surface++) {
    // `[a,b,c]`: each station's bytes follow `[` or a comma.
    let at = 1;
    offsets.push(
      dataset.stations.map((station) => {
        const start = at;
        const rendered = input.stations.stations.get(stationKey(station.contract, station.number));
        at += (rendered?.files[surface]?.size ?? 0) + 1;
        return start;
      }),
    );
  }
  return {
    format: REFRESH_STATE_FORMAT,
    release: release.id,
    baseUrl: input.baseUrl,
    source: input.source,
    parkings: dataset.parkings.length,
    contracts: input.staticSource.contracts,
    stations: input.staticSource.stations,
    staticProblems: input.staticProblems.filter((problem) => problem.severity === "warning"),
    states,
    staticPaths: [...release.files]
      .filter(([, file]) => file.freshness === "static")
      .map(([path]) => path),
    offsets,
  };
}
