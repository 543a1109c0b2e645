// The warning that a states file's stations have gone unreported too long (a feed that stalls keeps
// writing its file with old `lastUpdate`s): said by every command that reads one for publishing.
import { percent } from "../percent.js";
import {
  type FeedHealth,
  feedHealth,
  feedLimitsOf,
  feedQuestion,
  feedStatus,
  staleStations,
} from "../serve/feed-health.js";
import type { Dataset } from "../source/dataset.js";
import type { Output } from "./output.js";

/** `--stale-minutes` and `--max-stale` (a percent), as the command line gives them. */
export interface StaleLimits {
  staleMinutes?: number;
  maxStale?: number;
}

/**
 * Warns when more than `--max-stale` of the stations were not reported for `--stale-minutes` by
 * `now`, or have no state in the file (said apart: see staleStations); `then` says what is done
 * with them all the same. True when it warned.
 */
export function warnIfStalled(
  health: FeedHealth,
  statesFile: string,
  limits: StaleLimits,
  now: Date,
  output: Output,
  then = "Published all the same, each station with its lastUpdate",
): boolean {
  const feed = feedStatus(health, feedLimitsOf(limits), now);
  if (feed.ok) return false;
  output.warn(
    `warning: ${statesFile}: ${staleStations(feed, health.stations)} ` +
      `(${percent(feed.staleShare)}, more than --max-stale ${percent(feed.maxStaleShare)}): ${feedQuestion(feed)} ${then}`,
  );
  return true;
}

/**
 * warnIfStalled for a dataset read whole (`build`, `validate`: `by` says which, for what is done
 * with the states); none when it has no states at all, already said (every station published as
 * never reported).
 */
export function warnIfDatasetStalled(
  dataset: Pick<Dataset, "stations" | "states">,
  statesFile: string,
  limits: StaleLimits,
  now: Date,
  output: Output,
  by: "build" | "validate",
): boolean {
  if (dataset.states.size === 0) return false;
  const health = feedHealth(dataset.stations, dataset.states);
  // Counted as stale too, but with no lastUpdate to publish (see NO_STATE).
  const none =
    health.missing > 0 ? `, the ${health.missing} without a state CLOSED with lastUpdate null` : "";
  const then =
    by === "build"
      ? `Published all the same, each station with its lastUpdate${none}`
      : `(build publishes them all the same, each with its lastUpdate${none}; refresh and serve warn of it too)`;
  return warnIfStalled(health, statesFile, limits, now, output, then);
}
