// A state kept for a station the states file leaves out is held to the rules a fresh state of the
// same counts is held to, against the station as the static source now describes it.
import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/model/contract.js";
import type { Station } from "../../src/model/station.js";
import type { LiveState } from "../../src/source/dataset.js";
import { keptSaid, unfitKeptStates } from "../../src/source/kept-states.js";
import { formatProblem, type Problem, type Sourced, warning } from "../../src/source/problems.js";
import { saidLeftOut } from "../../src/source/read-dataset.js";
import { NO_STATE } from "../../src/source/rules/states.js";

const contract = (name: string, bikeTypes: Contract["bikeTypes"]): Sourced<Contract> => ({
  value: {
    name,
    commercial_name: name,
    country_code: "FR",
    cities: [],
    parkingApi: false,
    bikeTypes,
  },
  at: { file: "contracts.json", index: 0 },
});
const station = (number: number, extra: Partial<Station> = {}): Sourced<Station> => ({
  value: {
    contract: "nantes",
    number,
    name: `S${number}`,
    address: "",
    latitude: 47,
    longitude: -1.5,
    banking: false,
    bonus: false,
    overflow: true,
    capacity: 18,
    overflowCapacity: 6,
    ...extra,
  },
  at: { file: "stations.csv", index: number, line: number + 1, label: `nantes #${number}` },
});
const counts = (mechanical: number, removable: number, stands: number) => ({
  bikes: mechanical + removable,
  stands,
  mechanicalBikes: mechanical,
  electricalBikes: removable,
  electricalInternalBatteryBikes: 0,
  electricalRemovableBatteryBikes: removable,
});
// Nantes #5's in the fixtures: 10 bikes (4 electrical) and 6 free main stands, 2 + 4 overflow.
const last: LiveState = {
  status: "OPEN",
  connected: false,
  lastUpdate: "2026-11-20T08:15:05Z",
  main: counts(6, 4, 6),
  overflow: counts(2, 0, 4),
};
const BOTH = { mechanical: {}, electricalRemovableBattery: { max_range_meters: 50_000 } };
const said = (problems: ReadonlyMap<unknown, Problem>) => [...problems.values()].map(formatProblem);

describe("unfitKeptStates", () => {
  it("says nothing of kept states that fit their stations", () => {
    const kept = [
      { station: station(5), state: last },
      { station: station(6, { capacity: 16 }), state: last },
    ];
    expect(unfitKeptStates([contract("nantes", BOTH)], kept).size).toBe(0);
  });

  it("says a kept state beyond its station's lowered capacity at the station's record, in the rule's words", () => {
    const lowered = station(5, { capacity: 4 });
    const unfit = unfitKeptStates([contract("nantes", BOTH)], [{ station: lowered, state: last }]);
    expect([...unfit.keys()]).toEqual([lowered.at]);
    expect(unfit.get(lowered.at)?.severity).toBe("warning");
    expect(said(unfit)).toEqual([
      "stations.csv:6 (nantes #5): its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (mainStands: bikes + stands is 16, more than the station's capacity of 4): this state is left out, the station published without one (CLOSED) until the feed gives a good one",
    ]);
  });

  it("says every reason of one state in its one warning: a kind of bike no longer run, overflow stands removed", () => {
    const kept = [{ station: station(5, { overflowCapacity: null }), state: last }];
    const [line] = said(unfitKeptStates([contract("nantes", { mechanical: {} })], kept));
    expect(line).toContain(
      `(overflowStands: the station has no overflow stands (its overflowCapacity is empty or 0 in the station data): give null, or fill in its overflowCapacity; mainStands.electricalRemovableBatteryBikes: 4 bikes of a kind contract "nantes" does not run: add "electricalRemovableBattery" to its bikeTypes in contracts.json)`,
    );
  });

  it("holds each state to its own station only", () => {
    const fits = station(5);
    const lowered = station(6, { capacity: 4 });
    const unfit = unfitKeptStates(
      [contract("nantes", BOTH)],
      [
        { station: fits, state: last },
        { station: lowered, state: last },
      ],
    );
    expect([...unfit.keys()]).toEqual([lowered.at]);
  });
});

describe("keptSaid", () => {
  const kept = station(5).at;
  const unfitAt = station(6).at;
  const unfit = new Map([[unfitAt, warning(unfitAt, undefined, "no longer fits")]]);

  it("says a station whose kept state no longer fits by its warning, in place of no state", () => {
    const problems = [warning(kept, undefined, NO_STATE), warning(unfitAt, undefined, NO_STATE)];
    expect(keptSaid(problems, new Set([kept]), unfit).map(({ message }) => message)).toEqual([
      "no state: its last published state kept (status, bikes, stands, lastUpdate), marked disconnected",
      "no longer fits",
    ]);
  });

  it("says it in the line of the station's state in error left out, once, with what becomes of it", () => {
    const lowered = station(5, { capacity: 4 });
    const [problem] = unfitKeptStates(
      [contract("nantes", BOTH)],
      [{ station: lowered, state: last }],
    ).values();
    const unfitOfFive = new Map(problem ? [[lowered.at, problem]] : []);
    const inError = saidLeftOut(
      warning(
        { file: "states.json", index: 3, label: "nantes #5", station: "nantes/5" },
        "status",
        'must be one of "OPEN", "CLOSED", got "open"',
      ),
    );
    const alsoInError = { ...inError, field: "connected", message: "expected true or false" };
    expect(keptSaid([inError, alsoInError], new Set(), unfitOfFive).map(formatProblem)).toEqual([
      'states.json[3] (nantes #5) status: must be one of "OPEN", "CLOSED", got "open": this state is left out, and the station\'s last published state no longer fits it as the static source now describes it (mainStands: bikes + stands is 16, more than the station\'s capacity of 4): the station published without one (CLOSED) until the feed gives a good one',
      "states.json[3] (nantes #5) connected: expected true or false: this state is left out, the station published without one (CLOSED) until the feed gives a good one",
    ]);
    // Another station's state in error is said as ever, the unfit station's warning beside it.
    const other = { ...inError, at: { ...inError.at, station: "nantes/6" } };
    expect(keptSaid([other], new Set(), unfitOfFive)).toEqual([other, problem]);
  });

  it("says it where no station's no state is said (a file with no states)", () => {
    const file = warning({ file: "states.json" }, undefined, "has no states");
    expect(keptSaid([file], new Set(), unfit)).toEqual([file, unfit.get(unfitAt)]);
  });
});
