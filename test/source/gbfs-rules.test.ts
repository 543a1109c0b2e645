import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/model/contract.js";
import { Contract as ContractSchema } from "../../src/model/contract.js";
import { GBFS_TIME_ZONES } from "../../src/model/gbfs-time-zones.js";
import type { StationState } from "../../src/model/station-state.js";
import { formatProblem, type Problem, type Sourced } from "../../src/source/problems.js";
import {
  attributionNamed,
  bikesOfDeclaredTypes,
  electricalBikesHaveRange,
  gbfsFieldsPresent,
  languagesUnique,
  licenceStated,
  licenseIdsKnown,
  openingHoursValid,
  systemIdsUnique,
  timezonesKnown,
} from "../../src/source/rules/gbfs.js";
import { fixtureCopy, runCli } from "../helpers.js";

const sourced = <T>(file: string, values: T[]): Sourced<T>[] =>
  values.map((value, index) => ({ value, at: { file, index, label: `#${index}` } }));

const complete: Contract = {
  name: "lyon",
  commercial_name: "Vélo'v",
  country_code: "FR",
  cities: ["Lyon"],
  parkingApi: false,
  timezone: "Europe/Paris",
  languages: ["fr", "en"],
  feed_contact_email: "gbfs@example.org",
  opening_hours: "24/7",
  bikeTypes: { mechanical: {}, electricalRemovableBattery: { max_range_meters: 50000 } },
};
const bare: Contract = {
  name: "toulouse",
  commercial_name: "Vélô",
  country_code: "FR",
  cities: [],
  parkingApi: false,
};

describe("gbfsFieldsPresent", () => {
  it("accepts a contract with every field GBFS requires", () => {
    expect(gbfsFieldsPresent(sourced("contracts.json", [complete]))).toEqual([]);
  });

  it("names each missing field and says what to add", () => {
    const lines = gbfsFieldsPresent(
      sourced("contracts.json", [complete, { ...bare, languages: [], bikeTypes: {} }]),
    ).map(formatProblem);
    expect(lines).toEqual([
      'contracts.json[1] (#1) timezone: required for the GBFS feeds: add "timezone": "Europe/Paris" (the IANA time zone of the service area)',
      'contracts.json[1] (#1) languages: required for the GBFS feeds: add "languages": ["fr"] (the languages of the names, main one first)',
      'contracts.json[1] (#1) feed_contact_email: required for the GBFS feeds: add "feed_contact_email": "opendata@example.org" (where feed consumers report problems)',
      'contracts.json[1] (#1) opening_hours: required for the GBFS feeds: add "opening_hours": "24/7" (OSM opening_hours of the service, e.g. "Mo-Su 05:00-01:00")',
      'contracts.json[1] (#1) bikeTypes: required for the GBFS feeds: add "bikeTypes": {"mechanical": {}} listing the kinds of bike in service (mechanical, electricalInternalBattery, electricalRemovableBattery)',
    ]);
  });
});

describe("timezonesKnown", () => {
  it("accepts the zones of the GBFS schemas, spelt as they are, and says how to spell one in another case", () => {
    const zones = [
      "Europe/Paris",
      "UTC",
      "Europe/Lyon",
      "+01:00",
      "paris",
      "europe/dublin",
      "US/Pacific-New",
    ];
    const contracts = zones.map((timezone) => ({ ...complete, timezone }));
    const problems = timezonesKnown(sourced("contracts.json", contracts));
    expect(problems.map((p) => p.at.index)).toEqual([2, 3, 4, 5, 6]);
    expect(formatProblem(problems[3] as Problem)).toBe(
      'contracts.json[5] (#5) timezone: "europe/dublin" is not a time zone GBFS accepts: write it "Europe/Dublin"',
    );
    expect(formatProblem(problems[4] as Problem)).toBe(
      'contracts.json[6] (#6) timezone: "US/Pacific-New" is not a time zone GBFS accepts: give an IANA time zone, e.g. Europe/Paris',
    );
  });

  it("knows the zones of both GBFS schemas' enum, no more, no fewer", async () => {
    for (const version of ["v2.3", "v3.0"]) {
      const schema = JSON.parse(
        await readFile(
          new URL(
            `../../src/model/gbfs-schemas/${version}/system_information.json`,
            import.meta.url,
          ),
          "utf8",
        ),
      );
      expect([...GBFS_TIME_ZONES]).toEqual(schema.properties.data.properties.timezone.enum);
    }
  });
});

describe("openingHoursValid", () => {
  it("accepts OSM opening_hours, warns of what OSM's evaluator thinks a slip, refuses what it cannot read or must guess", () => {
    const hours = [
      "24/7",
      "Mo-Su 05:00-00:30",
      "Mo-Su 05:00-00:30; PH off", // closes the night before's last half hour too, as meant
      "Mo-Su 05:00-00:30;",
      "Mo-Fr 08:00-12:00 13:00-17:00",
      "Mo-Fr 06:00-02:00; Sa-Su 08:00-20:00", // Friday night cut at midnight: a slip
      "Mo-Fr 06:00-02:00; Sa 10:00-20:00; PH off", // so too, though a later rule closes
      "Mo-Fr 06:00-02:00; Sa 10:00-20:00 || Su off", // and with a fallback that closes
      "Lu-Di 05:00-00:30",
      "Mo-Su 25:00-26:00",
      "nightly",
    ];
    const contracts = sourced(
      "contracts.json",
      hours.map((opening_hours) => ({ ...complete, opening_hours })),
    );
    const problems = openingHoursValid(contracts);
    expect(problems.map((problem) => [problem.severity, problem.at.index])).toEqual([
      ["warning", 3],
      ["warning", 4],
      ["warning", 5],
      ["warning", 6],
      ["warning", 7],
      ["error", 8],
      ["error", 9],
      ["error", 10],
    ]);
    expect(problems.slice(0, 2).map(formatProblem)).toEqual([
      expect.stringMatching(
        /^contracts\.json\[3\] \(#3\) opening_hours: "Mo-Su 05:00-00:30;": This rule does not contain anything useful\./,
      ),
      expect.stringMatching(
        /^contracts\.json\[4\] \(#4\) opening_hours: "Mo-Fr 08:00-12:00 13:00-17:00": You have used 2 not connected time ranges/,
      ),
    ]);
    expect(formatProblem(problems[2] as Problem)).toMatch(
      /^contracts\.json\[5\] \(#5\) opening_hours: "Mo-Fr 06:00-02:00; Sa-Su 08:00-20:00": This rule overwrites parts of the previous rule/,
    );
    for (const at of [6, 7])
      expect(formatProblem(problems[at - 3] as Problem)).toContain(
        "This rule overwrites parts of the previous rule",
      );
    expect(problems.slice(5).map(formatProblem)).toEqual([
      // "Di" is Sunday in French and Tuesday to the evaluator: the reading it guessed is shown.
      expect.stringMatching(
        /^contracts\.json\[8\] \(#8\) opening_hours: "Lu-Di 05:00-00:30" is not OSM opening_hours as written: OSM's evaluator guesses "Mo-Tu 05:00-00:30" \(Please use the English abbreviation "Mo" for "lu"\. Please use the English abbreviation "Tu" for "di"\..*\); write the hours in OSM's syntax, e\.g\. "Mo-Su 05:00-00:30"$/,
      ),
      'contracts.json[9] (#9) opening_hours: "Mo-Su 25:00-26:00" is not OSM opening_hours (after "Mo-Su 25:00": Time range starts outside of the current day); e.g. "Mo-Su 05:00-00:30" or "24/7"',
      expect.stringMatching(
        /^contracts\.json\[10\] \(#10\) opening_hours: "nightly" is not OSM opening_hours \(after "ni": Unexpected token: "n"/,
      ),
    ]);
  });
});

describe("licenseIdsKnown", () => {
  it("takes the SPDX ids GBFS 3.0 lists, says how to spell one in another case, refuses the rest", () => {
    const licensed = (id: string) => ({ ...complete, license: { id } });
    const contracts = [complete, licensed("ODbL-1.0"), licensed("odbl-1.0"), licensed("ODbL")];
    expect(licenseIdsKnown(sourced("contracts.json", contracts)).map(formatProblem)).toEqual([
      'contracts.json[2] (#2) license.id: "odbl-1.0" is not an SPDX licence id GBFS accepts: write it "ODbL-1.0"',
      'contracts.json[3] (#3) license.id: "ODbL" is not an SPDX licence id GBFS accepts: give the licence\'s SPDX id, e.g. "ODbL-1.0", "CC-BY-4.0", "etalab-2.0", or, for a licence without one, its "url" alone',
    ]);
  });
});

describe("licenceStated", () => {
  it("warns of a contract with no licence, which GBFS 3.0 reads as public domain", () => {
    const contracts = [
      complete,
      { ...complete, license: { id: "ODbL-1.0" } },
      { ...complete, license: { url: "https://example.org/terms" } },
    ];
    const problems = licenceStated(sourced("contracts.json", contracts));
    expect(problems.map((problem) => problem.severity)).toEqual(["warning"]);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^contracts\.json\[0\] \(#0\) license: none stated: GBFS 3\.0 reads feeds without one as public domain \(CC0\)/,
      ),
    ]);
  });
});

describe("attributionNamed", () => {
  it("warns of a licence asking for credit with no operator to name, and of nothing else", () => {
    const { operator: _, ...anonymous } = complete;
    const contracts = [
      { ...anonymous, license: { id: "ODbL-1.0" } },
      { ...complete, license: { id: "ODbL-1.0" }, operator: { name: "JCDecaux" } },
      { ...anonymous, license: { id: "CC0-1.0" } },
      anonymous,
      { ...anonymous, license: { url: "https://example.org/terms" } },
    ];
    const problems = attributionNamed(sourced("contracts.json", contracts));
    expect(problems.map((problem) => problem.severity)).toEqual(["warning", "warning"]);
    expect(problems.map(formatProblem)).toEqual([
      'contracts.json[0] (#0) operator: none, while its licence (ODbL-1.0) asks reusers to credit the licensor: the GBFS feeds and the bundle\'s data package name no one; give "operator": { "name": "…" } (whom to credit)',
      'contracts.json[4] (#4) operator: none, while its licence (https://example.org/terms) may ask reusers to credit the licensor: the GBFS feeds and the bundle\'s data package name no one; give "operator": { "name": "…" } (whom to credit)',
    ]);
  });
});

describe("languagesUnique", () => {
  it("refuses a language listed twice, which would name everything twice in GBFS 3.0", () => {
    const contracts = [complete, { ...complete, languages: ["fr", "en", "fr"] }];
    expect(languagesUnique(sourced("contracts.json", contracts)).map(formatProblem)).toEqual([
      'contracts.json[1] (#1) languages: "fr" is listed twice: name each language once',
    ]);
  });
});

describe("gbfs_system_id", () => {
  it("takes GBFS's ID characters, and refuses one that is another contract's system_id", () => {
    expect(ContractSchema.safeParse({ ...complete, gbfs_system_id: "jcdecaux_lyon" }).success).toBe(
      true,
    );
    expect(ContractSchema.safeParse({ ...complete, gbfs_system_id: "vélo v" }).success).toBe(false);
    const contracts = [
      { ...complete, gbfs_system_id: "toulouse" },
      bare,
      { ...complete, name: "nantes", gbfs_system_id: "jcdecaux_nantes" },
      { ...complete, name: "nantes2", gbfs_system_id: "jcdecaux_nantes" },
    ];
    expect(systemIdsUnique(sourced("contracts.json", contracts)).map(formatProblem)).toEqual([
      `contracts.json[0] (#0) gbfs_system_id: "toulouse" is also contract toulouse's GBFS system_id: each system needs its own`,
      `contracts.json[3] (#3) gbfs_system_id: "jcdecaux_nantes" is also contract nantes's GBFS system_id: each system needs its own`,
    ]);
    expect(systemIdsUnique(sourced("contracts.json", [complete, bare]))).toEqual([]);
  });

  it("is the system_id of the contract's discovery, system_information and the manifest", async () => {
    const source = await fixtureCopy();
    const file = `${source}/contracts.json`;
    const contracts = JSON.parse(await readFile(file, "utf8"));
    contracts.contracts[0].gbfs_system_id = "jcdecaux_dublin";
    await writeFile(file, JSON.stringify(contracts));
    const out = `${source}/out`;
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const read = async (path: string) => JSON.parse(await readFile(`${out}/${path}`, "utf8"));
    const ids = (await read("gbfs/manifest.json")).data.datasets.map(
      (dataset: { system_id: string }) => dataset.system_id,
    );
    expect(ids).toEqual(["jcdecaux_dublin", "toulouse", "lyon", "nantes", "besancon"]);
    for (const path of ["gbfs/system_information.json", "gbfs/v3/system_information.json"])
      expect((await read(`contracts/dublin/${path}`)).data.system_id).toBe("jcdecaux_dublin");
    // The contract's name still makes its URLs.
    expect((await read("contracts/dublin/gbfs/v3/gbfs.json")).data.feeds[0].url).toContain(
      "/contracts/dublin/gbfs/v3/",
    );
  });
});

describe("electricalBikesHaveRange", () => {
  it("requires max_range_meters of each electrical kind, never of mechanical bikes", () => {
    const contract: Contract = {
      ...complete,
      bikeTypes: { mechanical: {}, electricalInternalBattery: {}, electricalRemovableBattery: {} },
    };
    const problems = electricalBikesHaveRange(sourced("contracts.json", [complete, contract]));
    expect(problems.map((p) => [p.at.index, p.field])).toEqual([
      [1, "bikeTypes.electricalInternalBattery.max_range_meters"],
      [1, "bikeTypes.electricalRemovableBattery.max_range_meters"],
    ]);
    expect(problems[0]?.message).toContain("add the distance in metres a full battery carries");
  });
});

describe("bikesOfDeclaredTypes", () => {
  const stands = {
    stands: 5,
    mechanicalBikes: 3,
    electricalInternalBatteryBikes: 0,
    electricalRemovableBatteryBikes: 2,
  };
  const state = (contract: string, extra: Partial<StationState> = {}): StationState => ({
    contract,
    number: 1,
    status: "OPEN",
    connected: true,
    lastUpdate: null,
    mainStands: stands,
    overflowStands: null,
    ...extra,
  });

  it("accepts bikes of declared kinds, in any case of the contract name", () => {
    const contracts = sourced("contracts.json", [complete]);
    expect(bikesOfDeclaredTypes(contracts, sourced("states.json", [state("Lyon")]))).toEqual([]);
  });

  it("checks against the first contract of a name given twice (the duplicate is reported elsewhere)", () => {
    const renamed = { ...complete, name: "LYON", bikeTypes: { mechanical: {} } };
    const contracts = sourced("contracts.json", [complete, renamed]);
    expect(bikesOfDeclaredTypes(contracts, sourced("states.json", [state("lyon")]))).toEqual([]);
  });

  it("reports bikes of a kind the contract does not run, in main and overflow stands", () => {
    const mechanicalOnly = { ...complete, bikeTypes: { mechanical: {} } };
    const problems = bikesOfDeclaredTypes(
      sourced("contracts.json", [mechanicalOnly]),
      sourced("states.json", [state("lyon", { overflowStands: stands })]),
    );
    expect(problems.map(formatProblem)).toEqual([
      'states.json[0] (#0) mainStands.electricalRemovableBatteryBikes: 2 bikes of a kind contract "lyon" does not run: add "electricalRemovableBattery" to its bikeTypes in contracts.json',
      'states.json[0] (#0) overflowStands.electricalRemovableBatteryBikes: 2 bikes of a kind contract "lyon" does not run: add "electricalRemovableBattery" to its bikeTypes in contracts.json',
    ]);
  });
});

describe("the contract schema's GBFS fields", () => {
  it("refuses a language tag the GBFS schemas refuse, a phone not in E.164, an unknown bike kind", () => {
    const result = ContractSchema.safeParse({
      ...complete,
      languages: ["FR"],
      operator: { name: "JCDecaux", phone: "01 23 45 67 89" },
      bikeTypes: { cargo: {} },
    });
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "languages.0",
      "bikeTypes",
      "operator.phone",
    ]);
  });
});

describe("validate on a source without the GBFS fields", () => {
  it("exits 1 naming the file, the contract, the field and what to add", async () => {
    const dir = await fixtureCopy();
    const path = `${dir}/contracts.json`;
    const file = JSON.parse(await readFile(path, "utf8")) as { contracts: Contract[] };
    delete file.contracts[1]?.feed_contact_email;
    delete file.contracts[0]?.bikeTypes?.electricalRemovableBattery?.max_range_meters;
    const besancon = file.contracts[4] as Contract;
    besancon.bikeTypes = { mechanical: {} };
    (file.contracts[2] as Contract).opening_hours = "nightly";
    await writeFile(path, JSON.stringify(file));
    const { code, stderr } = await runCli(["validate", "--source", dir]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${path}[1] (toulouse) feed_contact_email: required for the GBFS feeds: add "feed_contact_email"`,
    );
    expect(stderr).toContain(
      `${path}[0] (dublin) bikeTypes.electricalRemovableBattery.max_range_meters: required for the GBFS feeds`,
    );
    expect(stderr).toMatch(
      /contracts\.json\[2\] \(\w+\) opening_hours: "nightly" is not OSM opening_hours \(/,
    );
    expect(stderr).toMatch(
      /states\.json\[\d+\] \(besancon #\d+\) mainStands\.electricalRemovableBatteryBikes: \d+ bikes of a kind contract "besancon" does not run/,
    );
  });
});
