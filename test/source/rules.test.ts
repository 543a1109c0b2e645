import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/model/contract.js";
import type { Station } from "../../src/model/station.js";
import type { StationState } from "../../src/model/station-state.js";
import { formatProblem, type Sourced } from "../../src/source/problems.js";
import { contractNamesPathSafe, contractNamesUnique } from "../../src/source/rules/contracts.js";
import {
  contractsHaveStations,
  contractsNamedByNone,
  coordinatesInRange,
  knownContracts,
  onTheirContracts,
  parkingNumbersUniqueInContract,
  parkingsOnParkingContracts,
  positionsNearTheirContract,
  stationNumbersUniqueInContract,
} from "../../src/source/rules/records.js";
import {
  availabilitiesConsistent,
  lastUpdateInRange,
  lastUpdateIsUtcInstant,
  oneStatePerStation,
  statesForKnownStations,
  stationsHaveStates,
  toUtcSeconds,
} from "../../src/source/rules/states.js";
import { numbersPublishedAsWritten } from "../../src/source/rules/written-numbers.js";

const at = (file: string, index: number) => ({ file, index });
const sourced = <T>(file: string, values: T[]): Sourced<T>[] =>
  values.map((value, index) => ({ value, at: at(file, index) }));

const contract = (name: string, parkingApi = false): Contract => ({
  name,
  commercial_name: name,
  country_code: "FR",
  cities: [],
  parkingApi,
});
const station = (contract: string, number: number, extra: Partial<Station> = {}): Station => ({
  contract,
  number,
  name: `S${number}`,
  address: "",
  latitude: 45,
  longitude: 4,
  banking: false,
  bonus: false,
  overflow: false,
  capacity: 20,
  overflowCapacity: null,
  ...extra,
});
const stands = {
  stands: 5,
  mechanicalBikes: 3,
  electricalInternalBatteryBikes: 1,
  electricalRemovableBatteryBikes: 2,
};
const state = (
  contract: string,
  number: number,
  extra: Partial<StationState> = {},
): StationState => ({
  contract,
  number,
  status: "OPEN",
  connected: true,
  lastUpdate: "2025-02-08T16:44:06Z",
  mainStands: stands,
  overflowStands: null,
  ...extra,
});

describe("contractNamesUnique", () => {
  it("rejects two names that differ only by case, pointing at the second", () => {
    const problems = contractNamesUnique(
      sourced("contracts.json", [contract("dublin"), contract("lyon"), contract("Dublin")]),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      severity: "error",
      field: "name",
      at: { file: "contracts.json", index: 2 },
    });
    expect(problems[0]?.message).toContain('contract "dublin"');
  });
  it("accepts distinct names", () => {
    expect(contractNamesUnique(sourced("c", [contract("a"), contract("b")]))).toEqual([]);
  });
});

describe("contractNamesPathSafe", () => {
  it.each(["..", "a/b", "lyon city", "besançon", "12", "", "a.b", "x".repeat(65)])(
    "rejects %j",
    (name) => {
      const problems = contractNamesPathSafe(sourced("c", [contract(name)]));
      expect(problems).toHaveLength(1);
      expect(problems[0]?.field).toBe("name");
    },
  );
  it.each(["dublin", "bruxelles-capitale", "cergy_pontoise", "lyon2"])("accepts %j", (name) => {
    expect(contractNamesPathSafe(sourced("c", [contract(name)]))).toEqual([]);
  });
  it("asks for a name in lower case: a static host would not find its files by another spelling", () => {
    const [problem] = contractNamesPathSafe(sourced("c", [contract("Bruxelles-Capitale")]));
    expect(problem?.message).toBe(
      '"Bruxelles-Capitale" has capitals: write it "bruxelles-capitale" (static hosts match paths case-sensitively; a client asking for "Bruxelles-Capitale" is still answered)',
    );
  });
});

describe("knownContracts", () => {
  it("reports a station whose contract does not exist, matching names without case", () => {
    const contracts = sourced("contracts.json", [contract("dublin")]);
    const stations = sourced("stations.csv", [station("Dublin", 1), station("paris", 2)]);
    const problems = knownContracts(contracts, stations);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      field: "contract",
      at: { file: "stations.csv", index: 1 },
    });
    expect(problems[0]?.message).toContain('"paris"');
  });

  it("tells a contract renamed in contracts.json alone as such: one no station names", () => {
    const contracts = sourced("contracts.json", [contract("dublin"), contract("tlse")]);
    const stations = sourced("stations.csv", [station("dublin", 1), station("toulouse", 2)]);
    const renamed = contractsNamedByNone(contracts, stations, [], new Set());
    expect(knownContracts(contracts, stations, renamed).map((p) => p.message)).toEqual([
      'unknown contract "toulouse" (not in contracts.json, where "tlse" has no station: renamed?)',
    ]);
  });

  it("leaves the stations of a contract with spaces around its name to that contract's error", () => {
    const contracts = sourced("contracts.json", [contract("toulouse ")]);
    const stations = sourced("stations.csv", [station("toulouse", 1)]);
    expect(knownContracts(contracts, stations)).toEqual([]);
    expect(contractNamesPathSafe(contracts).map((p) => p.message)).toEqual([
      '"toulouse " has spaces around the name: write "toulouse"',
    ]);
    const both = sourced("contracts.json", [contract(" Lyon")]);
    expect(contractNamesPathSafe(both).map((p) => p.message)).toEqual([
      '" Lyon" has spaces around the name and capitals: write "lyon"',
    ]);
  });
});

describe("contractsNamedByNone, contractsHaveStations", () => {
  const contracts = sourced("contracts.json", [
    contract("dublin"),
    contract("rennes"),
    contract("nantes", true),
  ]);
  const stations = sourced("stations.csv", [station("Dublin", 1)]);
  const parkings = sourced("parkings.json", [{ contract: "nantes" }]);

  it("warns of a contract no station names: its lists would be published empty", () => {
    const none = contractsNamedByNone(contracts, stations, parkings, new Set());
    const problems = contractsHaveStations(none);
    expect(problems.map((problem) => `${problem.severity}: ${formatProblem(problem)}`)).toEqual([
      'warning: contracts.json[1] name: no station names contract "rennes": its lists are published empty (not yet exported, or named otherwise in the stations file?)',
    ]);
  });

  it("leaves out a contract of parkings only, or whose stations were not read", () => {
    const names = (unread: ReadonlySet<string> | "all") =>
      contractsNamedByNone(contracts, stations, parkings, unread).map(({ value }) => value.name);
    expect(names(new Set())).toEqual(["rennes"]);
    expect(names(new Set(["rennes"]))).toEqual([]);
    expect(names("all")).toEqual([]);
  });
});

describe("parkingsOnParkingContracts", () => {
  it("rejects a parking on a contract that does not offer the parking API", () => {
    const contracts = sourced("contracts.json", [contract("dublin"), contract("nantes", true)]);
    const parkings = sourced("parkings.json", [{ contract: "nantes" }, { contract: "dublin" }]);
    const problems = parkingsOnParkingContracts(contracts, parkings);
    expect(problems.map((problem) => problem.at.index)).toEqual([1]);
    expect(problems[0]?.message).toContain("parkingApi");
  });
});

describe("stationNumbersUniqueInContract", () => {
  it("rejects a number used twice in one contract, not across contracts", () => {
    const stations = sourced("stations.csv", [station("a", 1), station("b", 1), station("A", 1)]);
    const problems = stationNumbersUniqueInContract(stations);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ field: "number", at: { index: 2 } });
    expect(problems[0]?.message).toContain("first at [0]");
  });
});

describe("stationNumbersUniqueInContract, of numbers written otherwise", () => {
  it("says how each is written when two spellings make one number", () => {
    const written = (line: number, writtenNumber?: string) => ({
      value: station("a", 32),
      at: { file: "stations.csv", line, ...(writtenNumber ? { writtenNumber } : {}) },
    });
    const stations = [written(2, "032"), written(3), written(4, "+32"), written(5, "032")];
    expect(stationNumbersUniqueInContract(stations).map(formatProblem)).toEqual([
      'stations.csv:3 number: station 32 appears twice in contract "a" (first on line 2): written "032" there and "32" here, both published as 32',
      'stations.csv:4 number: station 32 appears twice in contract "a" (first on line 2): written "032" there and "+32" here, both published as 32',
      'stations.csv:5 number: station 32 appears twice in contract "a" (first on line 2)',
    ]);
  });
});

describe("numbersPublishedAsWritten", () => {
  it("warns of each number whose file writes it otherwise than it is published, saying how", () => {
    const parkings = sourced(
      "parkings.csv",
      [7, 32, 13, 52, 8].map((number) => ({ contract: "nantes", number })),
    );
    const spelt = ["032", "+13", "52.0", "+008."];
    parkings.slice(1).forEach((parking, at) => {
      parking.at = { ...parking.at, writtenNumber: spelt[at] };
    });
    expect(numbersPublishedAsWritten("parking", parkings).map(formatProblem)).toEqual([
      'parkings.csv[1] number: written "032", published as 32: numbers are published without leading zeros (clients ask for parking 32); write 32 if that is the parking\'s number',
      'parkings.csv[2] number: written "+13", published as 13: numbers are published without a sign (clients ask for parking 13); write 13 if that is the parking\'s number',
      'parkings.csv[3] number: written "52.0", published as 52: numbers are published without decimals (clients ask for parking 52); write 52 if that is the parking\'s number',
      'parkings.csv[4] number: written "+008.", published as 8: numbers are published without a sign, leading zeros or decimals (clients ask for parking 8); write 8 if that is the parking\'s number',
    ]);
  });
});

describe("parkingNumbersUniqueInContract", () => {
  it("rejects a parking number used twice in one contract", () => {
    const parkings = sourced("parkings.json", [
      { contract: "n", number: 7 },
      { contract: "n", number: 8 },
      { contract: "n", number: 7 },
    ]);
    const problems = parkingNumbersUniqueInContract(parkings);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toContain("parking 7");
  });
});

describe("coordinatesInRange", () => {
  it("rejects latitudes and longitudes out of WGS84 range and warns on 0, 0", () => {
    const problems = coordinatesInRange(
      sourced("s", [
        { latitude: 91, longitude: 0.5 },
        { latitude: 45, longitude: -181 },
        { latitude: 0, longitude: 0 },
        { latitude: -90, longitude: 180 },
      ]),
    );
    expect(problems.map((p) => [p.at.index, p.field, p.severity])).toEqual([
      [0, "latitude", "error"],
      [1, "longitude", "error"],
      [2, "latitude", "warning"],
    ]);
  });
});

describe("positionsNearTheirContract", () => {
  it("warns of a position far from its contract's others, saying when it reads as swapped", () => {
    const dublin = (latitude: number, longitude: number) => ({
      contract: "dublin",
      latitude,
      longitude,
    });
    const problems = positionsNearTheirContract(
      sourced("s", [
        dublin(53.3495, -6.2782),
        dublin(53.3402, -6.2601),
        dublin(53.3551, -6.2493),
        dublin(-6.2655, 53.3441), // swapped: both in range
        dublin(53.3441, 6.2655), // a sign lost
        { contract: "DUBLIN", latitude: 53.36, longitude: -6.25 }, // the same contract
        { contract: "lyon", latitude: 45.76, longitude: 4.83 }, // alone: no middle to speak of
        dublin(0, 0), // warned of by coordinatesInRange
      ]),
    );
    expect(problems.map(formatProblem)).toEqual([
      "s[3] latitude: -6.2655, 53.3441 is 8,641 km from the middle of its contract's others (53.347, -6.25): latitude and longitude swapped?",
      "s[4] latitude: 53.3441, 6.2655 is 830 km from the middle of its contract's others (53.347, -6.25): a wrong position?",
    ]);
  });
});

describe("onTheirContracts", () => {
  it("leaves out the records whose contract is in error: unknown, or a parking's without the parking API", () => {
    const contracts = sourced("contracts.json", [contract("Dublin"), contract("nantes", true)]);
    const place = (contract: string) => ({ contract, latitude: 47.2, longitude: -1.55 });
    const stations = sourced("stations.csv", [place("Dublin"), place("dubllin"), place("nantes")]);
    const parkings = sourced("parkings.json", [place("NANTES"), place("dublin"), place("nante")]);
    const kept = onTheirContracts(contracts, stations, parkings);
    expect(kept.map(({ at }) => `${at.file}[${at.index}]`)).toEqual([
      "stations.csv[0]",
      "stations.csv[2]",
      "parkings.json[0]",
    ]);
  });
});

describe("statesForKnownStations", () => {
  it("rejects a state for a station that is not in the static data", () => {
    const stations = sourced("stations.csv", [station("a", 1)]);
    const problems = statesForKnownStations(
      stations,
      sourced("states.json", [state("A", 1), state("a", 2)]),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ field: "number", at: { file: "states.json", index: 1 } });
  });

  it("says a contract no station has is the name to fix, not the number", () => {
    const stations = sourced("stations.csv", [station("a", 1)]);
    const problems = statesForKnownStations(stations, sourced("states.json", [state("paris", 1)]));
    expect(problems.map(formatProblem)).toEqual([
      'states.json[0] contract: no station has contract "paris": a misspelt name, or a contract not in contracts.json?',
    ]);
  });
});

describe("oneStatePerStation", () => {
  it("rejects a second state for the same station", () => {
    const problems = oneStatePerStation(
      sourced("states.json", [state("a", 1), state("a", 2), state("A", 1)]),
    );
    expect(problems.map((p) => [p.at.index, p.message])).toEqual([
      [2, "a second state for this station (first at [0])"],
    ]);
  });
});

describe("stationsHaveStates", () => {
  it("warns (does not fail) for a station without a state", () => {
    const stations = sourced("stations.csv", [station("a", 1), station("a", 2)]);
    const problems = stationsHaveStates(stations, sourced("states.json", [state("a", 1)]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: "warning", at: { index: 1 } });
  });
});

describe("availabilitiesConsistent", () => {
  const stations = sourced("stations.csv", [
    station("a", 1, { capacity: 12, overflowCapacity: 4 }),
    station("a", 2),
  ]);
  const check = (...states: StationState[]) =>
    availabilitiesConsistent(stations, sourced("states.json", states));

  it("accepts consistent counts, with derived totals or given ones, and stations below capacity", () => {
    expect(
      check(
        state("a", 1),
        state("a", 1, { mainStands: { ...stands, bikes: 6, electricalBikes: 3, stands: 1 } }),
      ),
    ).toEqual([]);
  });
  it("rejects bikes that are not mechanical + electrical", () => {
    const [problem] = check(state("a", 1, { mainStands: { ...stands, bikes: 7 } }));
    expect(problem).toMatchObject({ field: "mainStands" });
    expect(problem?.message).toContain("bikes is 7 but mechanicalBikes + electricalBikes is 6");
  });
  it("rejects electrical bikes that are not internal + removable", () => {
    const [problem] = check(state("a", 1, { mainStands: { ...stands, electricalBikes: 4 } }));
    expect(problem?.message).toContain("electricalBikes is 4");
  });
  it("rejects bikes + stands above capacity", () => {
    const [problem] = check(
      state("a", 1, { mainStands: { ...stands, stands: 5, mechanicalBikes: 5 } }),
    );
    expect(problem?.message).toContain(
      "bikes + stands is 13, more than the station's capacity of 12",
    );
  });
  it("checks overflow stands against the overflow capacity, and refuses them on a station without", () => {
    const over = { ...stands, stands: 2 };
    const problems = check(
      state("a", 1, { overflowStands: over }),
      state("a", 2, { overflowStands: stands }),
    );
    expect(problems.map((p) => [p.at.index, p.field])).toEqual([
      [0, "overflowStands"],
      [1, "overflowStands"],
    ]);
  });
});

describe("lastUpdateIsUtcInstant", () => {
  it.each([
    "2025-02-08 16:44:06",
    "2025-02-08T16:44:06",
    "2025-02-30T10:00:00Z",
    "yesterday",
    "2025-13-01T00:00:00Z",
  ])("rejects %j", (lastUpdate) => {
    const problems = lastUpdateIsUtcInstant(
      sourced("states.json", [state("a", 1, { lastUpdate })]),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe("lastUpdate");
  });
  it("says what a near miss lacks, whether the form is wrong, or the date does not exist", () => {
    const messages = [
      "2025-02-08T16:44Z",
      "2025-02-08T16:44:06",
      "2025-02-08 16:44:06+00:00",
      "2025-02-08 16:44:06+00",
      "2025-02-08T16:44:06+0100",
      "1739033046",
      "1739033153000",
      "NULL",
      "yesterday",
      "2025-02-30T16:44:06Z",
      "2025-02-08T24:30:00Z",
    ].map(
      (lastUpdate) =>
        lastUpdateIsUtcInstant(sourced("s", [state("a", 1, { lastUpdate })]))[0]?.message,
    );
    const since1970 =
      "is a count of seconds or milliseconds since 1970 (as v1 answers write it): write it as a date and time,";
    expect(messages).toEqual([
      '"2025-02-08T16:44Z" lacks seconds: write it as 2025-02-08T16:44:00Z',
      '"2025-02-08T16:44:06" lacks a time zone (Z for UTC, or an offset such as +01:00): write it as 2025-02-08T16:44:06Z if it is UTC',
      '"2025-02-08 16:44:06+00:00" lacks a T between the date and the time: write it as 2025-02-08T16:44:06+00:00',
      '"2025-02-08 16:44:06+00" lacks a T between the date and the time, the offset\'s minutes (+00:00): write it as 2025-02-08T16:44:06+00:00',
      '"2025-02-08T16:44:06+0100" lacks the offset\'s colon (+01:00): write it as 2025-02-08T16:44:06+01:00',
      `"1739033046" ${since1970} 2025-02-08T16:44:06Z if it counts seconds`,
      `"1739033153000" ${since1970} 2025-02-08T16:45:53Z if it counts milliseconds`,
      '"NULL" is a word for no value, as databases export it: give null (no quotes) for a station that never reported',
      '"yesterday" is not a date and time of the form 2025-02-08T16:44:06Z (with seconds, and Z or an offset such as +01:00)',
      '"2025-02-30T16:44:06Z" has the right form, but no such date or time of day exists',
      '"2025-02-08T24:30:00Z" has the right form, but no such date or time of day exists',
    ]);
  });
  it("says a local time without offset with the offset it has in its contract's zone, summer or winter", () => {
    const zones = new Map([
      ["nantes", "Europe/Paris"],
      ["boston", "America/New_York"],
    ]);
    const messages = [
      state("Nantes", 1, { lastUpdate: "2026-12-07T12:10:07" }),
      state("nantes", 2, { lastUpdate: "2026-07-07 12:10" }),
      state("boston", 3, { lastUpdate: "2026-01-15T08:00:00" }),
      state("elsewhere", 4, { lastUpdate: "2026-01-15T08:00:00" }),
    ].map((one) => lastUpdateIsUtcInstant(sourced("s", [one]), zones)[0]?.message);
    expect(messages).toEqual([
      `"2026-12-07T12:10:07" lacks a time zone: write it as 2026-12-07T12:10:07+01:00 if it is Europe/Paris time (its contract's timezone), or 2026-12-07T12:10:07Z if it is UTC`,
      `"2026-07-07 12:10" lacks a T between the date and the time, seconds, a time zone: write it as 2026-07-07T12:10:00+02:00 if it is Europe/Paris time (its contract's timezone), or 2026-07-07T12:10:00Z if it is UTC`,
      `"2026-01-15T08:00:00" lacks a time zone: write it as 2026-01-15T08:00:00-05:00 if it is America/New_York time (its contract's timezone), or 2026-01-15T08:00:00Z if it is UTC`,
      // A contract with no zone known (an unknown one, an error of its own): UTC alone is said.
      `"2026-01-15T08:00:00" lacks a time zone (Z for UTC, or an offset such as +01:00): write it as 2026-01-15T08:00:00Z if it is UTC`,
    ]);
  });
  it("accepts null (never reported) and instants with any offset", () => {
    const states = [null, "2025-02-08T16:44:06Z", "2025-02-08T17:44:06.999+01:00"].map(
      (lastUpdate) => state("a", 1, { lastUpdate }),
    );
    expect(lastUpdateIsUtcInstant(sourced("s", states))).toEqual([]);
  });
  it("publishes instants in UTC, whole seconds", () => {
    expect(toUtcSeconds("2025-02-08T17:44:06.999+01:00")).toBe("2025-02-08T16:44:06Z");
  });
});

describe("lastUpdateInRange", () => {
  const now = Date.parse("2026-11-23T07:00:00Z");
  const problemsOf = (...lastUpdates: (string | null)[]) =>
    lastUpdateInRange(
      sourced(
        "states.json",
        lastUpdates.map((lastUpdate) => state("a", 1, { lastUpdate })),
      ),
      now,
    ).map((problem) => [problem.severity, problem.at.index, problem.message]);

  it("accepts null, the past since GBFS began, and a station's clock a little ahead", () => {
    expect(
      problemsOf(null, "2015-12-15T05:00:00Z", "2026-11-23T06:59:00Z", "2026-11-23T07:14:00Z"),
    ).toEqual([]);
  });

  it("refuses a placeholder before GBFS's earliest time and a date days ahead; warns of hours ahead", () => {
    expect(
      problemsOf(
        "1970-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2026-11-23T09:00:00+01:00",
        "2026-11-23T08:30:00Z",
      ),
    ).toEqual([
      [
        "error",
        0,
        '"1970-01-01T00:00:00Z" is before 2015-12-15, the earliest time GBFS accepts: a placeholder? give null for a station that never reported',
      ],
      [
        "error",
        1,
        '"9999-12-31T23:59:59Z" is more than a day ahead of this machine\'s clock (2026-11-23T07:00:00Z): a wrong date?',
      ],
      [
        "warning",
        2,
        '"2026-11-23T09:00:00+01:00" (2026-11-23T08:00:00Z) is 1 h ahead of this machine\'s clock (2026-11-23T07:00:00Z): a wrong offset, or a clock set wrong? published as given',
      ],
      [
        "warning",
        3,
        '"2026-11-23T08:30:00Z" is 1.5 h ahead of this machine\'s clock (2026-11-23T07:00:00Z): a local time written with Z (UTC), or a clock set wrong? published as given',
      ],
    ]);
  });
});
