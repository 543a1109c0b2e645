// A cron refresh's dynamic answers (pure): only the stations whose state changed are rendered; the
// lists and station_status feeds holding them are spliced from the previous run's published bytes,
// each run of unchanged stations one slice of them (a list of 100,000 stations is a few thousand
// chunks, not 100,000).
import type { Station } from "../../model/station.js";
import { pathOf } from "../../routes/routes.js";
import { type Dataset, type LiveState, stationKey } from "../../source/dataset.js";
import { endpointFile, listFileOf, type ReleaseFile } from "../release.js";
import { encodeJson, jsonList } from "../render/json-body.js";
import type { StationSurface } from "../station-files.js";
import {
  type MinuteState,
  type PackedState,
  pack,
  packsTo,
  type RefreshState,
} from "./refresh-state.js";
import { spliceStatus } from "./splice-status.js";
import { itemsOf, type Span } from "./spliced-items.js";

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

export interface Spliced {
  /** The answers that differ from the previous run's, by URL path. */
  changed: Map<string, ReleaseFile>;
  /** How many stations were rendered again. */
  stations: number;
  minute: Omit<MinuteState, "format" | "release" | "static">;
}

/**
 * Null when the kept state does not describe the published bytes (an offset out of range, a
 * station whose path is not at its recorded place): the caller then renders everything.
 */
export function spliceStations(
  state: RefreshState,
  dataset: Dataset,
  published: PublishedBytes,
  surfaces: readonly StationSurface[],
  refreshSeconds: number,
  candidates: Candidates = allStations(dataset),
): Spliced | null {
  const { stations } = dataset;
  const count = stations.length;
  // Every station keeps its kept state but those whose new one differs.
  const states: (PackedState | null)[] = state.states.slice();
  const fresh: boolean[] = new Array(count).fill(false);
  const lives = new Map<number, LiveState | undefined>();
  for (const [index, live] of candidates) {
    if (packsTo(live, state.states[index] ?? null)) continue;
    states[index] = live ? pack(live) : null;
    fresh[index] = true;
    lives.set(index, live);
  }
  const rendered = lives.size;
  const changed = new Map<string, ReleaseFile>();
  const minute = {
    states,
    offsets: state.offsets.map((starts) => starts.slice()),
    statusStarts: state.statusStarts.map((starts) => starts.slice()),
    statusSizes: state.statusSizes.map((sizes) => sizes.slice()),
  };
  if (rendered === 0) return { changed, stations: 0, minute };

  // Per surface: where each station's bytes sit in the list of all stations, its size and ETag.
  const spans = surfaces.map((_, surface) => publishedSpans(state, published, surface, count));
  if (spans.some((span) => span === null)) return null;
  const rendering: (Uint8Array | undefined)[][] = surfaces.map(() => new Array(count));
  const etags: string[][] = surfaces.map(() => new Array(count));
  const byContract = new Map<string, number[]>();
  for (let index = 0; index < count; index++) {
    const station = stations[index] as Station;
    const group = byContract.get(station.contract);
    if (group) group.push(index);
    else byContract.set(station.contract, [index]);
    for (let surface = 0; surface < surfaces.length; surface++) {
      const span = spans[surface] as Span;
      if (!fresh[index]) {
        const etag = published.etagAt(state.positions[surface]?.[index] ?? -1);
        if (etag === undefined) return null;
        (etags[surface] as string[])[index] = etag;
        continue;
      }
      const at = surfaces[surface] as StationSurface;
      const endpoint = at.station(station.contract, station.number);
      const path = pathOf(endpoint);
      // The kept positions are the manifest's only if this station's path is where they say.
      if (published.pathAt(state.positions[surface]?.[index] ?? -1) !== path) return null;
      const file = endpointFile(endpoint, [encodeJson(at.render(station, lives.get(index)))]);
      changed.set(path, file);
      (rendering[surface] as Uint8Array[])[index] = file.body[0] as Uint8Array;
      (etags[surface] as string[])[index] = file.etag;
      span.sizes[index] = file.size;
    }
  }

  for (const contract of dataset.contracts) {
    const group = byContract.get(contract.name) ?? [];
    if (!group.some((index) => fresh[index])) continue;
    surfaces.forEach((surface, at) => {
      const span = spans[at] as Span;
      const own = rendering[at] as Uint8Array[];
      const list = itemsOf(group, fresh, (index) => own[index] as Uint8Array, span, true);
      const tags = group.map((index) => (etags[at] as string[])[index] as string);
      const endpoint = surface.contractList(contract.name);
      changed.set(pathOf(endpoint), listFileOf(endpoint, jsonList(list.items), list.size, tags));
    });
    if (
      !spliceStatus(
        contract,
        group,
        dataset,
        fresh,
        lives,
        published,
        state,
        minute,
        changed,
        refreshSeconds,
      )
    )
      return null;
  }

  const everyStation = Array.from({ length: count }, (_, index) => index);
  surfaces.forEach((surface, at) => {
    const span = spans[at] as Span;
    const own = rendering[at] as Uint8Array[];
    const list = itemsOf(everyStation, fresh, (index) => own[index] as Uint8Array, span, true);
    changed.set(
      pathOf(surface.all),
      listFileOf(surface.all, jsonList(list.items), list.size, etags[at] as string[]),
    );
    // `[a,b,c]`: each station's bytes follow `[` or a comma.
    const starts = minute.offsets[at] as number[];
    let offset = 1;
    for (let index = 0; index < count; index++) {
      starts[index] = offset;
      offset += (span.sizes[index] as number) + 1;
    }
  });
  return { changed, stations: rendered, minute };
}

/**
 * The stations whose state may have changed, by position in the dataset's stations, with their
 * new state (undefined: none); every other station keeps the state the kept one holds.
 */
export type Candidates = Iterable<readonly [number, LiveState | undefined]>;

/** Every station, its state looked up in the dataset's. */
function* allStations(dataset: Dataset): Generator<readonly [number, LiveState | undefined]> {
  for (let index = 0; index < dataset.stations.length; index++) {
    const station = dataset.stations[index] as Station;
    yield [index, dataset.states.get(stationKey(station.contract, station.number))];
  }
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
  const sizes: number[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const start = starts[index] as number;
    const end = index + 1 < count ? (starts[index + 1] as number) - 1 : bytes.length - 1;
    if (!(start >= 1 && end >= start && end < bytes.length)) return null;
    sizes[index] = end - start;
  }
  return { bytes, starts, sizes };
}
