import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/model/contract.js";
import { formatProblem, type Sourced } from "../../src/source/problems.js";
import { zipCodesWhole } from "../../src/source/rules/zip-codes.js";

const contract = (name: string, country_code: string): Sourced<Contract> => ({
  value: { name, commercial_name: name, country_code, cities: [], parkingApi: true },
  at: { file: "contracts.json", index: 0 },
});
const parkings = (contract: string, zipCodes: string[]) =>
  zipCodes.map((zipCode, index) => ({
    value: { contract, zipCode },
    at: { file: "parkings.csv", index, line: index + 2, label: `${contract} #${index + 1}` },
  }));
const said = (contracts: Sourced<Contract>[], records: ReturnType<typeof parkings>) =>
  zipCodesWhole(contracts, records).map(
    (problem) => `${problem.severity}: ${formatProblem(problem)}`,
  );

describe("zipCodesWhole: postal codes a spreadsheet cut their leading zero off", () => {
  it("says a French code of 4 digits, with the code it was", () => {
    expect(said([contract("bourg", "FR")], parkings("bourg", ["01000", "1000", "69003"]))).toEqual([
      'warning: parkings.csv:3 (bourg #2) zipCode: "1000" has 4 digits where France\'s postal codes have 5: a leading zero lost, as a spreadsheet reading the column as numbers drops it? write it as text, "01000"',
    ]);
  });

  it("says it once a contract, at the first, with how many", () => {
    const problems = said([contract("bourg", "FR")], parkings("bourg", ["1000", "1090", "1000"]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('parkings.csv:2 (bourg #1) zipCode: "1000" has 4 digits');
    expect(problems[0]).toContain('(3 parkings of contract "bourg" so)');
  });

  it("takes the digits of the contract's country, 4 in Belgium", () => {
    expect(said([contract("bruxelles", "BE")], parkings("bruxelles", ["1000", "1050"]))).toEqual(
      [],
    );
    expect(
      said([contract("bruxelles", "BE")], parkings("bruxelles", ["1000", "999"]))[0],
    ).toContain("where Belgium's postal codes have 4");
  });

  it("measures a country it does not know against most of the contract's codes", () => {
    const codes = ["02100", "12000", "12001", "2100"];
    expect(said([contract("elsewhere", "XK")], parkings("elsewhere", codes))).toEqual([
      'warning: parkings.csv:5 (elsewhere #4) zipCode: "2100" has 4 digits where the other parkings of contract "elsewhere" have 5: a leading zero lost, as a spreadsheet reading the column as numbers drops it? write it as text, "02100"',
    ]);
    // Two codes of 5 digits and one of 4: no majority of 3 to tell which is right.
    expect(
      said([contract("elsewhere", "XK")], parkings("elsewhere", ["12000", "12001", "2100"])),
    ).toEqual([]);
  });

  it("leaves codes of letters, empty ones and whole ones alone", () => {
    const codes = ["L-1234", "", "75001", "D02 X285"];
    expect(said([contract("paris", "FR")], parkings("paris", codes))).toEqual([]);
  });
});
