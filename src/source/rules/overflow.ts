// A station's overflow stands as the API shows them: null when it has none (every station of the
// real service's captures without them says "overflow": false beside "overflowStands": null).
import type { Station } from "../../model/station.js";
import { counted } from "../../plural.js";
import { withFields } from "../../with-fields.js";
import { type Problem, type Sourced, warning } from "../problems.js";

const LEAVE_EMPTY = "leave it empty (null in JSON) where a station has none";

/**
 * A spreadsheet writes 0 where a station has no overflow stands: read as none, so the API says
 * `overflowStands: null` rather than a group of 0 stands. Said, since the downloads then give
 * none too, not the 0 written. Of a refused station's passed fields too (a SalvagedRecord stays one).
 */
export function zeroOverflowAsNone<S extends Sourced<Station>>(
  stations: readonly S[],
): { stations: S[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const read = stations.map((station) => {
    if (station.value.overflowCapacity !== 0) return station;
    problems.push(
      warning(
        station.at,
        "overflowCapacity",
        `0 read as no overflow stands (overflowStands null, as the API shows a station without them); ${LEAVE_EMPTY}`,
      ),
    );
    const value = withFields<Station>(station.value, { overflowCapacity: null });
    return withFields<S>(station, { value } as Partial<S>);
  });
  return { stations: read, problems };
}

/**
 * Overflow stands are where a station takes overflow returns: stands beside `"overflow": false`
 * publish a station that refuses the returns it has stands for. Said, not refused: an operator may
 * stop a station's overflow returns for a while and keep its stands, and which is meant is the
 * maintainer's to say.
 */
export function overflowStandsOnOverflowStations(stations: readonly Sourced<Station>[]): Problem[] {
  return stations
    .filter(({ value }) => !value.overflow && (value.overflowCapacity ?? 0) > 0)
    .map(({ value, at }) =>
      warning(
        at,
        "overflow",
        `is false, yet overflowCapacity gives ${counted(value.overflowCapacity ?? 0, "overflow stand")}: published as given; set overflow to true if the station takes overflow returns, or leave overflowCapacity empty (null in JSON) if it has no overflow stands`,
      ),
    );
}

/**
 * `"overflow": true` says the station takes overflow returns, and its overflow stands are where
 * they go: the API shows them in overflowStands (the documentation's station taking them has
 * some; every real capture's without them says false). One taking them with none publishes a
 * promise no client can see kept, `overflowStands` null: most likely its overflowCapacity left
 * empty, or overflow set true for every station. Said, not refused, as its converse above.
 */
export function overflowStationsHaveStands(stations: readonly Sourced<Station>[]): Problem[] {
  return stations
    .filter(({ value }) => value.overflow && !value.overflowCapacity)
    .map(({ at }) =>
      warning(
        at,
        "overflow",
        "is true, yet overflowCapacity gives no overflow stands: published as given (overflowStands null); set overflow to false if the station takes no overflow returns, or give overflowCapacity its number of overflow stands",
      ),
    );
}
