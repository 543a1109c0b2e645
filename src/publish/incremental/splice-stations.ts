// A cron refresh's dynamic answers (pure): only the stations whose state changed are rendered; the
// lists and station_status feeds holding them are spliced from the previous run's published bytes,
// each run of unchanged stations one slice of them (a list of 100,000 stations is a few thousand
// chunks, not 100,000).
import type { Contract } from "../../model/contract.js";
import type { Station } from "../../model/station.js";
import { publishedTime } from "../../published-time.js";
import { pathOf } from "../../routes/routes.js";
import { type Dataset, type LiveState, stationKey } from "../../source/dataset.js";
import { type ListLayout, listLayouts } from "../list-layout.js";
import { endpointFile, listFileOf, type ReleaseFile } from "../release.js";
import { jsonList } from "../render/json-body.js";
import type { StationSurface } from "../station-files.js";
import { DIGEST_SIZE } from "../status-tag.js";
import type { MinuteState, RefreshState } from "./refresh-state.js";
import { type StatusSplice, spliceStatus } from "./splice-status.js";
import { itemsOf, type Span } from "./spliced-items.js";
import { copyColumns, holdsState, setState, timesIndex } from "./state-columns.js";

/** What the previous run published, as far as the stations' answers go. */
export interface PublishedBytes {
  /** Per station surface: the bytes of its list of all stations. */
  allLists: readonly Buffer[];
  /** Per contract, per GBFS version: its station_status file (`pathOfStatus`). */
  statusFeeds: ReadonlyMap<string, readonly Buffer[]>;
  /** The manifest's ETag and path at a position of its paths (`RefreshState.positions`). */
  etagAt(position: number): string | undefined;
  pathAt(position: number): string | undefined;
}

export interface SpliceOptions {
  /** Told of each list or feed as soon as it is made (to compress it meanwhile). */
  onList?: (path: string, file: ReleaseFile, kind: ListKind) => void;
  /**
   * Told of each contract's list that did not change while the lists of all stations did: not
   * written, but what their variants can be joined of (see ChangedVariants.addPieces).
   */
  onUnchangedList?: (path: string, file: ReleaseFile) => void;
}

/** A list of all stations, a contract's list of stations, or another feed (station_status). */
export type ListKind = "all" | "contract" | "feed";

export interface Spliced {
  /** The answers that differ from the previous run's, by URL path. */
  changed: Map<string, ReleaseFile>;
  /**
   * Where the stations' own changed answers sit among the manifest's paths (checked here): the
   * caller needs no search for 20,000 of them (the lists it looks up).
   */
  positions: Map<string, number>;
  /** How many stations were rendered again. */
  stations: number;
  minute: Omit<MinuteState, "format" | "release" | "static">;
  lists?: ListLayout[];
}

/**
 * Null when the kept state does not describe the published bytes (an offset out of range, a
 * station whose path is not at its recorded place): the caller then renders everything.
 */
export function spliceStations(
  state: RefreshState,
  input: SpliceInput,
  published: PublishedBytes,
  surfaces: readonly StationSurface[],
  refreshSeconds: number,
  options: SpliceOptions = {},
): Spliced | null {
  const { stations, candidates } = input;
  const count = stations.count;
  // Every station keeps its kept state but those whose new one differs.
  const states = copyColumns(state.states);
  const timeAt = timesIndex(states);
  const fresh: boolean[] = new Array(count).fill(false);
  const lives = new Map<number, LiveState | undefined>();
  for (const [index, live] of candidates) {
    if (holdsState(state.states, index, live)) continue;
    setState(states, index, live, timeAt);
    fresh[index] = true;
    lives.set(index, live);
  }
  const rendered = lives.size;
  const changed = new Map<string, ReleaseFile>();
  const positions = new Map<string, number>();
  const add = (path: string, file: ReleaseFile, kind: ListKind) => {
    changed.set(path, file);
    options.onList?.(path, file, kind);
  };
  const statusAt = input.statesAt ? publishedTime(input.statesAt) : null;
  const minute = {
    states,
    offsets: state.offsets.map((starts) => starts.slice()),
    statusStarts: state.statusStarts.map((starts) => starts.slice()),
    statusSizes: state.statusSizes.map((sizes) => sizes.slice()),
    statusDigests: state.statusDigests,
    statusAt,
  };
  // The states' new time is said by every contract's station_status, changed stations or not.
  const everyFeed = statusAt !== state.statusAt;
  if (rendered === 0 && !everyFeed) return { changed, positions, stations: 0, minute };
  const digests = state.statusDigests.map((column) => Buffer.copyBytesFrom(column));
  if (digests.some((column) => column.length !== count * DIGEST_SIZE)) return null;

  // Per surface: where each station's bytes sit in the list of all stations, its size and ETag.
  const spans = surfaces.map((_, surface) => publishedSpans(state, published, surface, count));
  if (spans.some((span) => span === null)) return null;
  const rendering: (Uint8Array | undefined)[][] = surfaces.map(() => new Array(count));
  const etags: string[][] = surfaces.map(() => new Array(count));
  const byContract = new Map<string, number[]>();
  for (let index = 0; index < count; index++) {
    const contract = stations.contractName(index);
    const group = byContract.get(contract);
    if (group) group.push(index);
    else byContract.set(contract, [index]);
    for (let surface = 0; surface < surfaces.length; surface++) {
      const span = spans[surface] as Span;
      if (!fresh[index]) {
        const etag = published.etagAt(state.positions[surface]?.[index] ?? -1);
        if (etag === undefined) return null;
        (etags[surface] as string[])[index] = etag;
        continue;
      }
      const at = surfaces[surface] as StationSurface;
      const station = stations.station(index);
      const endpoint = at.station(station.contract, station.number);
      const path = pathOf(endpoint);
      // The kept positions are the manifest's only if this station's path is where they say.
      const position = state.positions[surface]?.[index] ?? -1;
      if (published.pathAt(position) !== path) return null;
      const file = endpointFile(endpoint, [Buffer.from(at.json(station, lives.get(index)))]);
      changed.set(path, file); // a station's own answer: no list
      positions.set(path, position);
      (rendering[surface] as Uint8Array[])[index] = file.body[0] as Uint8Array;
      (etags[surface] as string[])[index] = file.etag;
      span.sizes[index] = file.size;
    }
  }

  const everyStation = Array.from({ length: count }, (_, index) => index);
  if (rendered > 0)
    surfaces.forEach((surface, at) => {
      const span = spans[at] as Span;
      const own = rendering[at] as Uint8Array[];
      const list = itemsOf(everyStation, fresh, (index) => own[index] as Uint8Array, span, true);
      // First: the biggest answers, compressed the longest.
      add(
        pathOf(surface.all),
        listFileOf(surface.all, jsonList(list.items), list.size, etags[at] as string[]),
        "all",
      );
      // `[a,b,c]`: each station's bytes follow `[` or a comma.
      const starts = minute.offsets[at] as Float64Array;
      let offset = 1;
      for (let index = 0; index < count; index++) {
        starts[index] = offset;
        offset += (span.sizes[index] as number) + 1;
      }
    });
  const statusSplice: StatusSplice = {
    stations,
    fresh,
    lives,
    published,
    state,
    minute,
    digests,
    add: (path, file) => add(path, file, "feed"),
    refreshSeconds,
    statusAt,
  };
  for (const contract of input.contracts) {
    const group = byContract.get(contract.name) ?? [];
    const changedHere = group.some((index) => fresh[index]);
    const unchangedList =
      !changedHere && rendered > 0 && group.length > 0 ? options.onUnchangedList : undefined;
    if (changedHere || unchangedList)
      surfaces.forEach((surface, at) => {
        const span = spans[at] as Span;
        const own = rendering[at] as Uint8Array[];
        const list = itemsOf(group, fresh, (index) => own[index] as Uint8Array, span, true);
        const tags = group.map((index) => (etags[at] as string[])[index] as string);
        const endpoint = surface.contractList(contract.name);
        const file = listFileOf(endpoint, jsonList(list.items), list.size, tags);
        if (unchangedList) unchangedList(pathOf(endpoint), file);
        else add(pathOf(endpoint), file, "contract");
      });
    if (!changedHere && !everyFeed) continue;
    if (!spliceStatus(contract, group, statusSplice)) return null;
  }
  minute.statusDigests = digests;
  // What the lists of all stations' compression can be made of.
  const lists = rendered > 0 ? listLayouts(byContract, surfaces) : undefined;

  return { changed, positions, stations: rendered, minute, ...(lists ? { lists } : {}) };
}

/**
 * The stations whose state may have changed, by position among the stations, with their new state
 * (undefined: none); every other station keeps the state the kept one holds.
 */
export type Candidates = Iterable<readonly [number, LiveState | undefined]>;

/** The stations as a refresh splices them: each one's contract, and its record when rendered. */
export interface SplicedStations {
  readonly count: number;
  /** The contract's own spelling of its name. */
  contractName(index: number): string;
  /** Its record, `contract` spelt as the contract spells its name. */
  station(index: number): Station;
}

export interface SpliceInput {
  contracts: readonly Contract[];
  stations: SplicedStations;
  candidates: Candidates;
  /** When the publisher knew these states (Dataset's `statesAt`). */
  statesAt?: Date;
}

/** A whole dataset: every station a candidate, its state looked up in the dataset's. */
export function datasetInput(dataset: Dataset): SpliceInput {
  const { stations } = dataset;
  const at = (index: number) => stations[index] as Station;
  return {
    contracts: dataset.contracts,
    stations: {
      count: stations.length,
      contractName: (index) => at(index).contract,
      station: at,
    },
    candidates: stations.map(
      (station, index) =>
        [index, dataset.states.get(stationKey(station.contract, station.number))] as const,
    ),
    ...(dataset.statesAt ? { statesAt: dataset.statesAt } : {}),
  };
}

function publishedSpans(
  state: RefreshState,
  published: PublishedBytes,
  surface: number,
  count: number,
): Span | null {
  const bytes = published.allLists[surface] as Buffer;
  const starts = state.offsets[surface] ?? [];
  if (starts.length !== count) return null;
  const sizes = new Int32Array(count);
  for (let index = 0; index < count; index++) {
    const start = starts[index] as number;
    const end = index + 1 < count ? (starts[index + 1] as number) - 1 : bytes.length - 1;
    if (!(start >= 1 && end >= start && end < bytes.length)) return null;
    sizes[index] = end - start;
  }
  return { bytes, starts, sizes };
}
