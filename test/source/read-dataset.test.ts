import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/source/problems.js";
import { readDataset, readStates, readStatic } from "../../src/source/read-dataset.js";
import { collectGarbage, FIXTURES, fixtureCopy, tempDir } from "../helpers.js";
import { lyonParking, lyonSource, lyonState, lyonStation } from "./lyon-source.js";

async function sourceDir(files: Record<string, string | Buffer>): Promise<string> {
  const dir = join(await tempDir(), "source");
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const isError = (problem: { severity: string }) => problem.severity === "error";

/** The errors a read of the source `dir` says of `file`, as printed. */
const errorsIn = async (dir: string, file: string): Promise<string[]> =>
  (await readDataset(dir)).problems
    .filter((problem) => isError(problem) && problem.at.file === file)
    .map(formatProblem);

const contracts = JSON.stringify({
  contracts: [
    {
      name: "lyon",
      commercial_name: "Vélo'v",
      country_code: "FR",
      cities: ["Lyon"],
      parkingApi: true,
      timezone: "Europe/Paris",
      languages: ["fr"],
      feed_contact_email: "gbfs@example.org",
      opening_hours: "24/7",
      bikeTypes: { mechanical: {}, electricalRemovableBattery: { max_range_meters: 50000 } },
      operator: { name: "JCDecaux" },
      license: { id: "ODbL-1.0" },
    },
  ],
});
const stationsCsv = [
  "contract,number,name,address,latitude,longitude,banking,bonus,overflow,capacity,overflowCapacity",
  'Lyon,1,"GARE, PART-DIEU",Place Béraudier,45.76,4.86,TRUE,false,true,20,6',
  "lyon,2,BELLECOUR,,45.757,4.832,false,false,false,10,",
].join("\r\n");

describe("readDataset", () => {
  it("reads the bundled fixtures without errors", async () => {
    const { dataset, problems } = await readDataset(FIXTURES);
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(dataset?.contracts.map((c) => c.name)).toEqual([
      "dublin",
      "toulouse",
      "lyon",
      "nantes",
      "besancon",
    ]);
    expect(dataset?.stations).toHaveLength(413);
    expect(dataset?.states.size).toBe(413);
  });

  it("reads stations from CSV: quoted cells, booleans in any case, empty cells as absent, contract names normalised", async () => {
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": stationsCsv });
    const { dataset, problems } = await readDataset(dir);
    expect(problems.map(formatProblem)).toEqual([
      `${join(dir, "parkings.json")}: not found (nor parkings.csv), yet 1 contract offers the parking API (lyon): their parking answers are empty lists; check the file's name`,
      `${join(dir, "states.json")}: no state file: every station is published as CLOSED and disconnected`,
    ]);
    expect(dataset?.stations).toEqual([
      {
        contract: "lyon",
        number: 1,
        name: "GARE, PART-DIEU",
        address: "Place Béraudier",
        latitude: 45.76,
        longitude: 4.86,
        banking: true,
        bonus: false,
        overflow: true,
        capacity: 20,
        overflowCapacity: 6,
      },
      {
        contract: "lyon",
        number: 2,
        name: "BELLECOUR",
        address: "",
        latitude: 45.757,
        longitude: 4.832,
        banking: false,
        bonus: false,
        overflow: false,
        capacity: 10,
        overflowCapacity: null,
      },
    ]);
  });

  it("names the file, line, record and field of a bad CSV cell, and reports every one", async () => {
    const bad = stationsCsv.replace("45.757", "north").replace(",10,", ",ten,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    const lines = problems.filter((p) => p.severity === "error").map(formatProblem);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/stations\.csv:3 \(lyon #2\) latitude: expected number, got "north"/);
    expect(lines[1]).toMatch(/stations\.csv:3 \(lyon #2\) capacity: expected number, got "ten"/);
  });

  it("counts a record's line where it starts, past cells holding CRLF, LF and empty lines", async () => {
    const rows = stationsCsv.split("\r\n");
    const csv = [
      `\uFEFF${rows[0]}`,
      rows[1]?.replace("Place Béraudier", '"Place\r\nBéraudier"'),
      "",
      'lyon,3,"PARNELL\r\nSQUARE\nNORTH",,45.75,4.83,nope,false,false,10,',
      rows[2]?.replace(",10,", ",ten,"),
    ].join("\r\n");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { problems } = await readDataset(dir);
    const lines = problems.filter((p) => p.severity === "error").map(formatProblem);
    // As an editor numbers them: the header 1, station 1 on 2–3, an empty line, station 3 on 5–7.
    expect(lines).toEqual([
      expect.stringMatching(
        /stations\.csv:5 \(lyon #3\) banking: expected true or false, got "nope"/,
      ),
      expect.stringMatching(/stations\.csv:8 \(lyon #2\) capacity: expected number, got "ten"/),
    ]);
  });

  it("warns of a field beside a file's list, which is not read, and reads the list", async () => {
    const withVersion = JSON.stringify({ ...JSON.parse(contracts), version: 2 });
    const dir = await sourceDir({ "contracts.json": withVersion, "stations.csv": stationsCsv });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset?.contracts.map((contract) => contract.name)).toEqual(["lyon"]);
    expect(problems.map(formatProblem)).toContain(
      `${join(dir, "contracts.json")} version: is not read: only "contracts" is (a misplaced field?)`,
    );
    expect(problems.find((p) => p.message.startsWith("is not read"))?.severity).toBe("warning");
  });

  it("reads rows whose lines end differently (CRLF, LF, CR), counting each line once", async () => {
    const rows = stationsCsv.split("\r\n");
    const csv = `${rows[0]}\r\n${rows[1]}\n${rows[2]?.replace(",10,", ",ten,")}\r`;
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { problems } = await readDataset(dir);
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      expect.stringMatching(/stations\.csv:3 \(lyon #2\) capacity: expected number, got "ten"/),
    ]);
  });

  it("refuses a 16-digit station number with the range a number may take, as written", async () => {
    const csv = stationsCsv.replace("lyon,2,", "lyon,1000000000000000,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      expect.stringMatching(
        /stations\.csv:3 \(lyon #1000000000000000\) number: must be a whole number from 0 to 2,147,483,647 \(at most 10 digits\), got 1000000000000000: the original service's clients read it as a 32-bit integer$/,
      ),
    ]);
  });

  it("refuses numbers and stand counts past what the original service's clients read (32-bit)", async () => {
    const csv = stationsCsv
      .replace("lyon,2,", "lyon,3000000000,")
      .replace(",20,6", ",2147483647,6");
    const state = lyonState(1);
    const past = { ...state, mainStands: { ...(state.mainStands as object), stands: 2147483648 } };
    const states = JSON.stringify({ states: [past] });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": csv,
      "states.json": states,
    });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    const reason = "the original service's clients read it as a 32-bit integer";
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #3000000000) number: must be a whole number from 0 to 2,147,483,647 (at most 10 digits), got 3000000000: ${reason}`,
      `${join(dir, "stations.csv")}:2 (Lyon #1) overflowCapacity: with capacity makes 2147483653 stands in all (v3's totalStands, v1's bike_stands), more than 2147483647: the original service's clients read that total as a 32-bit integer`,
      `${join(dir, "states.json")}[0] (lyon #1) mainStands.stands: must be a whole number from 0 to 2,147,483,647 (at most 10 digits), got 2147483648: ${reason}`,
    ]);
  });

  it("says once what is wrong with a number past 2^53, as written: its range, not zod's safe-integer bound", async () => {
    const csv = stationsCsv.replace("lyon,2,", "lyon,9007199254740993,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { problems } = await readDataset(dir);
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      expect.stringMatching(
        /stations\.csv:3 \(lyon #9007199254740993\) number: must be a whole number from 0 to 2,147,483,647 \(at most 10 digits\), got 9007199254740993:/,
      ),
    ]);
  });

  it("refuses a number in scientific notation, as a spreadsheet exports a long one, rounded", async () => {
    const csv = stationsCsv.replace("lyon,2,", "lyon,1.23457E+14,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #1.23457E+14) number: expected number, got "1.23457E+14": scientific notation, as a spreadsheet shows long numbers, rounded; write the number in full`,
    ]);
  });

  it("says a number written with a decimal comma, and how to write it", async () => {
    const csv = stationsCsv.replace("45.757,4.832", '"45,757","4,832"');
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #2) latitude: expected number, got "45,757": a decimal comma (a French or German spreadsheet's) or a thousands separator (an English one's); write 45.757 or 45757, as meant`,
      `${join(dir, "stations.csv")}:3 (lyon #2) longitude: expected number, got "4,832": a decimal comma (a French or German spreadsheet's) or a thousands separator (an English one's); write 4.832 or 4832, as meant`,
    ]);
  });

  it("says a comma before three digits may separate thousands, never advising 1.000 for a count of 1,000", async () => {
    const csv = stationsCsv.replace(",10,", ',"1,000",').replace("45.757", '"45,7571"');
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #2) latitude: expected number, got "45,7571": a decimal comma, as a spreadsheet in a French or German locale writes it; write 45.7571`,
      `${join(dir, "stations.csv")}:3 (lyon #2) capacity: expected a whole number, got "1,000": a thousands separator (an English spreadsheet's); write 1000`,
    ]);
  });

  it("says a space inside a number, a thousands separator or a slip, and how to write it", async () => {
    // A French spreadsheet's 1 000, its space a no-break one; a space typed into a latitude.
    const csv = stationsCsv
      .replace(",20,6", ",\u202f1\u00a0000\u00a0,6")
      .replace(",10,", ",1 000,")
      .replace("45.757", "4 5.757");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:2 (Lyon #1) capacity: expected a whole number, got "1\u00a0000": a no-break space inside the number, as a thousands separator (a French spreadsheet's); write 1000`,
      `${join(dir, "stations.csv")}:3 (lyon #2) latitude: expected number, got "4 5.757": a space inside the number; write it without: 45.757, if that is the number meant`,
      `${join(dir, "stations.csv")}:3 (lyon #2) capacity: expected a whole number, got "1 000": a space inside the number, as a thousands separator; write 1000`,
    ]);
    // A JSON file's number in quotes, so written: the same words; spaces around it are none inside.
    const station = {
      ...lyonStation(1),
      capacity: "1\u202f000",
      latitude: "45.7 6",
      overflowCapacity: " 6 ",
    };
    const json = JSON.stringify({ stations: [station] });
    const fromJson = await sourceDir({ "contracts.json": contracts, "stations.json": json });
    expect((await readDataset(fromJson)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(fromJson, "stations.json")}[0] (lyon #1) latitude: expected number, got "45.7 6": a space inside the number; write it without: 45.76, if that is the number meant`,
      `${join(fromJson, "stations.json")}[0] (lyon #1) capacity: expected a whole number, got "1\u202f000": a no-break space inside the number, as a thousands separator (a French spreadsheet's); write 1000`,
      `${join(fromJson, "stations.json")}[0] (lyon #1) overflowCapacity: expected number, got " 6 "`,
    ]);
    // A space in a count not between thousands, or around a number that is no whole one: no
    // number to write without it.
    const other = stationsCsv.replace(",10,", ",1 2.5,").replace(",20,6", ",12 34,6");
    const spaced = await sourceDir({ "contracts.json": contracts, "stations.csv": other });
    expect((await readDataset(spaced)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(spaced, "stations.csv")}:2 (Lyon #1) capacity: expected a whole number, got "12 34": a space inside the number; write it without: 1234, if that is the number meant`,
      `${join(spaced, "stations.csv")}:3 (lyon #2) capacity: expected number, got "1 2.5"`,
    ]);
  });

  it("warns of a station's or a parking's number its CSV cell writes otherwise than it is published", async () => {
    const stations = stationsCsv.replace("Lyon,1,", "Lyon,001,").replace("lyon,2,", "lyon,+2,");
    const parkings = [
      "contract,number,name,status,latitude,longitude,accessType,lockerType,hasSurveillance,isFree,address,zipCode,city,isOffStreet,hasElectricSupport,hasPhysicalReception",
      "lyon,7.0,GARE,OPEN,45.76,4.86,SECURED,COLLECTIVE,true,false,Place Béraudier,69003,Lyon,true,false,false",
    ].join("\n");
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": stations,
      "parkings.csv": parkings,
    });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset?.stations.map(({ number }) => number)).toEqual([1, 2]);
    expect(dataset?.parkings.map(({ number }) => number)).toEqual([7]);
    expect(problems.filter(({ field }) => field === "number").map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:2 (Lyon #1) number: written "001", published as 1: numbers are published without leading zeros (clients ask for station 1); write 1 if that is the station's number`,
      `${join(dir, "stations.csv")}:3 (lyon #2) number: written "+2", published as 2: numbers are published without a sign (clients ask for station 2); write 2 if that is the station's number`,
      `${join(dir, "parkings.csv")}:2 (lyon #7) number: written "7.0", published as 7: numbers are published without decimals (clients ask for parking 7); write 7 if that is the parking's number`,
    ]);
    // Two spellings of one number: its second station is refused, with both.
    const twice = stationsCsv.replace("lyon,2,", "lyon,01,");
    const collided = await sourceDir({ "contracts.json": contracts, "stations.csv": twice });
    expect((await readDataset(collided)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(collided, "stations.csv")}:3 (lyon #1) number: station 1 appears twice in contract "lyon" (first on line 2): written "1" there and "01" here, both published as 1`,
    ]);
  });

  it("reads a JSON file's number as the number it is, and says one in quotes with its sign", async () => {
    // 2.0 is JSON's 2, as any reader of the file reads it: nothing is published otherwise.
    const stations = `{"stations": [${JSON.stringify(lyonStation(1)).replace('"number":1', '"number":1.0')}, ${JSON.stringify({ ...lyonStation(2), number: "+2" })}]}`;
    const dir = await sourceDir({ "contracts.json": contracts, "stations.json": stations });
    expect(stations).toContain('"number":1.0,');
    expect(
      (await readDataset(dir)).problems
        .filter(({ field }) => field === "number")
        .map(formatProblem),
    ).toEqual([
      `${join(dir, "stations.json")}[1] (lyon #+2) number: expected number, got "+2": write 2 without quotes`,
    ]);
  });

  it("says a decimal comma not in quotes splits a coordinate, and a header row repeated in the file", async () => {
    const [header, first, second] = stationsCsv.split("\r\n");
    // The second header as a second Excel export would start: with its BOM.
    const csv = [
      header,
      first?.replace("45.76,", "45,76,"),
      second,
      `\uFEFF${header?.toUpperCase()}`,
    ];
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv.join("\r\n") });
    const file = join(dir, "stations.csv");
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${file}:2: has 12 cells where the header has 11: a decimal comma, not in quotes, splits latitude "45,76" (write 45.76): numbers are written with a point`,
      `${file}:4: repeats the header row (files joined?): remove it`,
    ]);
    // A comma inside a name left unquoted, the row's last cell empty: no "commas at the end".
    const name = [header, first, second?.replace("BELLECOUR", "BELLE,COUR")].join("\r\n");
    const named = await sourceDir({ "contracts.json": contracts, "stations.csv": name });
    expect((await readDataset(named)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(named, "stations.csv")}:3: has 12 cells where the header has 11: a comma inside a cell not in quotes ("a, b"), before latitude: the cells from there on are one column off`,
    ]);
    // A count split so is not taken for a decimal: its cells are another slip.
    const count = [header, first?.replace(",20,", ",2,0,"), second].join("\r\n");
    const counted = await sourceDir({ "contracts.json": contracts, "stations.csv": count });
    expect((await readDataset(counted)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(counted, "stations.csv")}:2: has 12 cells where the header has 11: a comma inside a cell not in quotes ("a, b")?`,
    ]);
  });

  it("reads a number between no-break spaces, and says a word for no value is one", async () => {
    const csv = stationsCsv.replace("45.757,", "\u00a045.757\u00a0,").replace(",10,", ",NULL,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { problems } = await readDataset(dir);
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #2) capacity: expected number, got "NULL": a word for no value, as databases export it; where the field may have none, leave the cell empty (null in JSON)`,
    ]);
    // A word for no value where an object is expected is no cell to leave empty.
    const objects = contracts.replace('"operator":{"name":"JCDecaux"}', '"operator":"none"');
    const noOperator = await sourceDir({ "contracts.json": objects, "stations.csv": stationsCsv });
    expect((await readDataset(noOperator)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(noOperator, "contracts.json")}[0] (lyon) operator: expected object, got "none"`,
    ]);
    const fixed = csv.replace(",NULL,", ",10,");
    const read = await readDataset(
      await sourceDir({ "contracts.json": contracts, "stations.csv": fixed }),
    );
    expect(read.dataset?.stations.map(({ latitude }) => latitude)).toContain(45.757);
  });

  it("says a count with a comma not before three digits is not a whole number", async () => {
    const csv = stationsCsv.replace(",10,", ',"4,5",');
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:3 (lyon #2) capacity: must be a whole number, got "4,5"`,
    ]);
  });

  it("skips rows of empty cells, as a spreadsheet exports rows once used, and counts lines past them", async () => {
    const [header, first, second] = stationsCsv.split("\r\n");
    const csv = [
      header,
      first,
      ",,,,,,,,,,",
      second?.replace(",10,", ",ten,"),
      ",,,,,,,,,,",
      ",,",
    ].join("\r\n");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    const { problems } = await readDataset(dir);
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:4 (lyon #2) capacity: expected number, got "ten"`,
    ]);
    const fixed = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": csv.replace(",ten,", ",10,"),
    });
    const { dataset } = await readDataset(fixed);
    expect(dataset?.stations.map((station) => station.number)).toEqual([1, 2]);
  });

  it("says booleans are written true or false, to a spreadsheet writing VRAI or 1", async () => {
    const csv = stationsCsv.replace("TRUE,false,true", "VRAI,0,1");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": csv });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:2 (Lyon #1) banking: expected true or false, got "VRAI": a French spreadsheet's word for true; write true`,
      `${join(dir, "stations.csv")}:2 (Lyon #1) bonus: expected true or false, got "0": a database's way to write false; write false`,
      `${join(dir, "stations.csv")}:2 (Lyon #1) overflow: expected true or false, got "1": a database's way to write true; write true`,
    ]);
  });

  it("says a JSON boolean written in quotes is text, and to write it without them", async () => {
    const stations = JSON.stringify({
      stations: [{ ...lyonStation(1), banking: "true", bonus: "False" }],
    });
    const dir = await sourceDir({ "contracts.json": contracts, "stations.json": stations });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.json")}[0] (lyon #1) banking: expected true or false, got "true": write true without quotes`,
      `${join(dir, "stations.json")}[0] (lyon #1) bonus: expected true or false, got "False": write false without quotes`,
    ]);
  });

  it("says a header's columns of another export in one error, however many, naming the first", async () => {
    const header = stationsCsv.split("\r\n")[0] as string;
    const extra = ["district", "zone", "ward", "owner", "notes", "photo", "x"];
    const wide = stationsCsv
      .split("\r\n")
      .map((line, at) => `${line},${at === 0 ? extra.join(",") : ",".repeat(extra.length - 1)}`)
      .join("\r\n");
    expect(wide.startsWith(`${header},district,`)).toBe(true);
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": wide });
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    expect(lines.filter((line) => line.includes("unknown column"))).toEqual([
      `${join(dir, "stations.csv")}:1: 7 unknown columns, "district", "zone", "ward", "owner", "notes" and 2 more: this file has only the columns contract, number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity; leave them out of the export`,
    ]);
  });

  it("reports unknown and missing CSV columns once, on the header line, naming the one misspelt", async () => {
    const bad = stationsCsv
      .replace("banking,", "bankng,")
      .replace("capacity,", "capactiy,")
      .replace("overflowCapacity", "overflowCapacity,district");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    const file = join(dir, "stations.csv");
    expect(lines).toContain(`${file}:1 bankng: unknown column: "banking" misspelt?`);
    expect(lines).toContain(`${file}:1 capactiy: unknown column: "capacity" misspelt?`);
    expect(lines).toContain(
      `${file}:1 district: unknown column: this file has only the columns contract, number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity; leave it out of the export`,
    );
    expect(lines).toContain(
      `${join(dir, "stations.csv")}:1 banking: required column is missing from the header`,
    );
  });

  it("names the column a header cell means when only its case differs, once", async () => {
    const bad = stationsCsv.replace("contract,number,", "Contract,Number,");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toEqual([
      `${join(dir, "stations.csv")}:1 Contract: unknown column: column names are read with their case; write "contract"`,
      `${join(dir, "stations.csv")}:1 Number: unknown column: column names are read with their case; write "number"`,
    ]);
  });

  it("words bounds and choices for people, not in zod's terms", async () => {
    const bad = stationsCsv.replace(",10,", ",-1,").replace(",20,", ",20.5,");
    const states = JSON.stringify({
      states: [
        { contract: "lyon", number: 1, status: "", connected: true, lastUpdate: null, main: null },
      ],
    });
    const dir = await sourceDir({
      "contracts.json": contracts.replace("gbfs@example.org", "gbfs at example.org"),
      "stations.csv": bad,
      "states.json": states,
    });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toContain(
      `${join(dir, "stations.csv")}:3 (lyon #2) capacity: must be at least 0, got -1`,
    );
    expect(lines).toContain(
      `${join(dir, "stations.csv")}:2 (Lyon #1) capacity: must be a whole number, got 20.5`,
    );
    expect(lines).toContain(
      `${join(dir, "contracts.json")}[0] (lyon) feed_contact_email: must be an email address, e.g. opendata@example.org, got "gbfs at example.org"`,
    );
    expect(lines).toContain(
      `${join(dir, "states.json")}[0] (lyon #1) status: must be one of "OPEN", "CLOSED", got ""`,
    );
  });

  it("warns when contracts offer the parking API and no parkings file is found (a misspelt name)", async () => {
    const dir = await fixtureCopy();
    await rename(join(dir, "parkings.json"), join(dir, "parking.json"));
    const { dataset, problems } = await readDataset(dir);
    expect(dataset?.parkings).toEqual([]);
    expect(problems.map(formatProblem)).toContain(
      `${join(dir, "parkings.json")}: not found (nor parkings.csv), yet 2 contracts offer the parking API (lyon, nantes): their parking answers are empty lists; check the file's name; found "parking.json": rename it parkings.json (file names are read exactly, in lower case)`,
    );
  });

  it("refuses a lastUpdate that cannot be true (GBFS would be invalid, /status fooled)", async () => {
    const states = JSON.stringify({
      states: [
        {
          contract: "lyon",
          number: 1,
          status: "OPEN",
          connected: true,
          lastUpdate: "9999-12-31T23:59:59Z",
          mainStands: {
            stands: 10,
            mechanicalBikes: 10,
            electricalInternalBatteryBikes: 0,
            electricalRemovableBatteryBikes: 0,
          },
          overflowStands: null,
        },
      ],
    });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": stationsCsv,
      "states.json": states,
    });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${join(dir, "states.json")}\\[0\\] \\(lyon #1\\) lastUpdate: "9999-12-31T23:59:59Z" is more than a day ahead of this machine's clock`,
        ),
      ),
    ]);
  });

  it("says a column comes twice, rather than what the second one spoils", async () => {
    const bad = stationsCsv.replace(",overflowCapacity", ",capacity");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toEqual([
      `${join(dir, "stations.csv")}:1 capacity: column appears twice in the header`,
    ]);
  });

  it("finds the line of a quote that is never closed past a cell on two lines", async () => {
    const rows = stationsCsv.split("\r\n");
    const bad = [
      rows[0],
      rows[1]?.replace("Place Béraudier", '"Place Béraudier\r\nPart-Dieu"'),
      rows[2]?.replace("BELLECOUR", '"BELLECOUR'),
      "lyon,3,TERREAUX,,45.767,4.833,false,false,false,10,",
    ].join("\r\n");
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toEqual([
      `${join(dir, "stations.csv")}:4: has a cell that opens a quote (") and never closes it: close it, or double a quote inside a cell ("")`,
    ]);
  });

  it("finds the line of a quote that is never closed, not where the parser gave up", async () => {
    const rows = stationsCsv.split("\r\n");
    const more = Array.from(
      { length: 20 },
      (_, at) => `lyon,${at + 3},"NAME ${at}",,45.7,4.8,false,false,false,10,`,
    );
    const bad = [rows[0], rows[1], rows[2]?.replace("BELLECOUR", '"BELLECOUR'), ...more].join(
      "\r\n",
    );
    const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bad });
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(lines).toEqual([
      `${join(dir, "stations.csv")}:3: has a cell that opens a quote (") and never closes it: close it, or double a quote inside a cell ("")`,
    ]);
  });

  it("says a file is UTF-16 or empty, rather than what that makes of its content", async () => {
    const utf16 = Buffer.from(`\ufeff${stationsCsv}`, "utf16le");
    let dir = await sourceDir({ "contracts.json": contracts, "stations.csv": utf16 });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.csv")}:1: is UTF-16 text (little-endian), not UTF-8: re-save it as UTF-8 (in a spreadsheet: "CSV UTF-8")`,
    ]);
    dir = await sourceDir({ "contracts.json": "\n", "stations.csv": stationsCsv });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toContain(
      `${join(dir, "contracts.json")}: is empty: an export that wrote nothing?`,
    );
    // The states file too, though it is read by its all-ASCII fast path.
    dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": stationsCsv,
      "states.json": "",
    });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "states.json")}: is empty: an export that wrote nothing?`,
    ]);
  });

  it("says a workbook renamed .csv is one, not Latin-1 text", async () => {
    const xlsx = Buffer.concat([
      Buffer.from("PK\x03\x04\x14\x00\x06\x00", "latin1"),
      Buffer.alloc(64, 0x86),
    ]);
    const xls = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(64, 0x86)]);
    for (const [bytes, kind] of [
      [xlsx, "a zip file: .xlsx or .ods"],
      [xls, "an OLE file: .xls"],
    ] as const) {
      const dir = await sourceDir({ "contracts.json": contracts, "stations.csv": bytes });
      expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
        `${join(dir, "stations.csv")}: is a spreadsheet workbook (${kind}), not text: export the sheet as CSV (in a spreadsheet: "CSV UTF-8")`,
      ]);
    }
  });

  it("locates a JSON syntax error by line", async () => {
    const dir = await sourceDir({
      "contracts.json": '{\n "contracts": [\n  {"name": "lyon",}\n ]\n}',
      "stations.csv": stationsCsv,
    });
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    expect(lines[0]).toMatch(/contracts\.json:3: is not valid JSON/);
  });

  it("says a contract name padded with spaces is one, in stations and states", async () => {
    const stations = JSON.stringify({
      stations: [lyonStation(1), { ...lyonStation(2), contract: "lyon   " }],
    });
    const states = JSON.stringify({ states: [{ ...lyonState(1), contract: "lyon " }] });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.json": stations,
      "states.json": states,
    });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.json")}[1] (lyon    #2) contract: unknown contract "lyon   ": spaces around the name (a fixed-width export's padding?); write "lyon"`,
      `${join(dir, "states.json")}[0] (lyon  #1) contract: no station has contract "lyon ": spaces around the name (a fixed-width export's padding?); write "lyon"`,
    ]);
  });

  it("says how to write a number quoted in JSON, a text left unquoted and a time as a number", async () => {
    const states = JSON.stringify({
      states: [
        { ...lyonState(1), number: "1" },
        {
          ...lyonState(2),
          lastUpdate: 1796418091000,
          mainStands: { ...(lyonState(2).mainStands as object), stands: "005" },
        },
      ],
    });
    const stations = JSON.stringify({
      stations: [lyonStation(1), { ...lyonStation(2), name: 42 }],
    });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.json": stations,
      "states.json": states,
    });
    const [file, statesFile] = [join(dir, "stations.json"), join(dir, "states.json")];
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${file}[1] (lyon #2) name: expected text, got 42: write it in quotes, "42"`,
      `${statesFile}[0] (lyon #1) number: expected number, got "1": write 1 without quotes`,
      `${statesFile}[1] (lyon #2) lastUpdate: is a number (seconds or milliseconds since 1970?): write it as a date and time, 2026-12-04T21:01:31Z if it counts milliseconds`,
      `${statesFile}[1] (lyon #2) mainStands.stands: expected number, got "005": write 5 without quotes`,
    ]);
    // Its record in error, lyon #1 has one: no "no state" beside it.
    const warnings = (await readDataset(dir)).problems.filter(
      ({ severity }) => severity === "warning",
    );
    expect(warnings.map(formatProblem).filter((line) => line.includes("no state"))).toEqual([]);
  });

  it("names the record and the nested field of a bad state, and unknown fields", async () => {
    const states = JSON.stringify({
      states: [
        {
          contract: "lyon",
          number: 1,
          status: "OPEN",
          connected: true,
          lastUpdate: "2025-02-08T16:44:06Z",
          mainStands: {
            stands: 1,
            mechanicalBikes: -1,
            electricalInternalBatteryBikes: 0,
            electricalRemovableBatteryBikes: 0,
          },
        },
        {
          contract: "lyon",
          number: 2,
          status: "open",
          connected: true,
          lastUpdate: null,
          mainStands: {
            stands: 1,
            mechanicalBikes: 0,
            electricalInternalBatteryBikes: 0,
            electricalRemovableBatteryBikes: 0,
          },
          colour: "red",
        },
      ],
    });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": stationsCsv,
      "states.json": states,
    });
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    const file = join(dir, "states.json");
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${file}\\[0\\] \\(lyon #1\\) mainStands\\.mechanicalBikes: `),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${file}\\[1\\] \\(lyon #2\\) status: `)),
    );
    expect(lines).toContain(
      `${file}[1] (lyon #2) colour: unknown field: the fields here are contract, number, status, connected, lastUpdate, mainStands, overflowStands`,
    );
  });

  it("says of each unknown field what was meant: its case, the API's name for it, a slip", async () => {
    const { capacity: _, ...station } = lyonStation(1);
    const stations = JSON.stringify({
      stations: [{ ...station, Capacity: 10, contract_name: "lyon", lng: 4.8, overflw: false }],
    });
    const { mainStands, ...state } = lyonState(1);
    const { bikes: __, ...counts } = mainStands as { bikes: number };
    const states = JSON.stringify({
      states: [
        {
          ...state,
          available_bikes: 2,
          mainStands: { ...counts, mechanicalBikez: 2, available_bikes: 2 },
        },
      ],
    });
    const dir = await lyonSource(0);
    await writeFile(join(dir, "stations.json"), stations);
    await writeFile(join(dir, "states.json"), states);
    // (Lyon's contract lacks the GBFS fields: said too, of contracts.json.)
    const lines = (await readDataset(dir)).problems
      .filter((problem) => isError(problem) && problem.at.file !== join(dir, "contracts.json"))
      .map(formatProblem);
    const [stationsFile, statesFile] = [join(dir, "stations.json"), join(dir, "states.json")];
    // Not "capacity: is required" besides: the hint says it.
    expect(lines).toEqual([
      `${stationsFile}[0] (lyon #1) Capacity: unknown field: field names are read with their case; write "capacity"`,
      `${stationsFile}[0] (lyon #1) contract_name: unknown field: the API's name for it; write "contract"`,
      `${stationsFile}[0] (lyon #1) lng: unknown field: write "longitude"`,
      `${stationsFile}[0] (lyon #1) overflw: unknown field: the fields here are contract, number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity`,
      `${statesFile}[0] (lyon #1) mainStands.mechanicalBikez: unknown field: the fields here are bikes, stands, mechanicalBikes, electricalBikes, electricalInternalBatteryBikes, electricalRemovableBatteryBikes`,
      // The same name in the counts' object: the count it stands for there (not "bikes: is required" besides).
      `${statesFile}[0] (lyon #1) mainStands.available_bikes: unknown field: the v1 API's name; write "bikes"`,
      `${statesFile}[0] (lyon #1) available_bikes: unknown field: the v1 API's name; a state gives its bikes in "mainStands": {"mechanicalBikes", "electricalInternalBatteryBikes", "electricalRemovableBatteryBikes"}`,
    ]);
  });

  it("says of a live state's field in a station's record that it goes in the states file", async () => {
    const station = { ...lyonStation(1), status: "OPEN", available_bikes: 3, totalStands: {} };
    const dir = await lyonSource(1);
    await writeFile(join(dir, "stations.json"), JSON.stringify({ stations: [station] }));
    const stationsFile = join(dir, "stations.json");
    const lines = await errorsIn(dir, stationsFile);
    const live =
      "unknown field: part of the station's live state, which goes in the states file (read every minute), not in stations";
    expect(lines).toEqual([
      `${stationsFile}[0] (lyon #1) status: ${live}`,
      `${stationsFile}[0] (lyon #1) available_bikes: ${live}`,
      // Published, made from a state's stands: in neither file.
      `${stationsFile}[0] (lyon #1) totalStands: unknown field: published, made from "mainStands" and "overflowStands": leave it out`,
    ]);
  });

  it("gives an API name's hint only in a record that has the field it names; a field in two cases is said twice", async () => {
    const dir = await lyonSource(1);
    const contracts = JSON.parse(await readFile(join(dir, "contracts.json"), "utf8"));
    contracts.contracts[0].lng = 4.8;
    await writeFile(join(dir, "contracts.json"), JSON.stringify(contracts));
    const station = { ...lyonStation(1), Capacity: 10 };
    await writeFile(join(dir, "stations.json"), JSON.stringify({ stations: [station] }));
    const lines = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    const lng = lines.find((line) => line.includes(") lng: "));
    expect(lng).toMatch(/\) lng: unknown field: the fields here are name, /);
    expect(lines).toContain(
      `${join(dir, "stations.json")}[0] (lyon #1) Capacity: unknown field: given twice, as "Capacity" and "capacity" (names are read with their case); leave "Capacity" out`,
    );
  });

  it("says a field missing once, by the hint of the unknown one written in its place", async () => {
    const { contract, latitude, longitude, name: _, ...station } = lyonStation(1);
    const written = { ...station, contract_name: contract, position: { latitude, longitude } };
    const dir = await lyonSource(0);
    await writeFile(join(dir, "stations.json"), JSON.stringify({ stations: [written] }));
    const file = join(dir, "stations.json");
    const lines = await errorsIn(dir, file);
    expect(lines).toEqual([
      // No hint names it: said missing.
      `${file}[0] name: is required`,
      `${file}[0] contract_name: unknown field: the API's name for it; write "contract"`,
      `${file}[0] position: unknown field: the API's form; write "latitude" and "longitude" as fields of their own`,
    ]);
  });

  it("suggests the field an unknown one misspells only where the record lacks it", async () => {
    const { capacity, ...station } = lyonStation(1);
    const stations = JSON.stringify({ stations: [{ ...station, capcity: capacity }] });
    const dir = await lyonSource(0);
    await writeFile(join(dir, "stations.json"), stations);
    const lines = (await readDataset(dir)).problems
      .filter((problem) => isError(problem) && problem.at.file !== join(dir, "contracts.json"))
      .map(formatProblem);
    // One slip, one line: the hint names the field, which is not said missing again.
    expect(lines).toEqual([
      `${join(dir, "stations.json")}[0] (lyon #1) capcity: unknown field: "capacity" misspelt?`,
    ]);
  });

  it("does not turn one bad contract into an unknown-contract error on each of its stations", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "contracts.json");
    await writeFile(
      path,
      (await readFile(path, "utf8")).replace('"country_code": "IE"', '"country_code": "Ireland"'),
    );
    const errors = (await readDataset(dir)).problems.filter((p) => p.severity === "error");
    expect(errors.map(formatProblem)).toEqual([
      `${path}[0] (dublin) country_code: must be an ISO 3166-1 alpha-2 code in capitals, e.g. FR`,
    ]);
    // Codes in another case: how to write them.
    await writeFile(
      path,
      (await readFile(path, "utf8"))
        .replace('"country_code": "Ireland"', '"country_code": "ie"')
        .replace('"languages": [\n        "en"\n      ]', '"languages": ["EN", "pt_br"]'),
    );
    const cased = (await readDataset(dir)).problems.filter((p) => p.severity === "error");
    expect(cased.map(formatProblem)).toEqual([
      `${path}[0] (dublin) country_code: must be an ISO 3166-1 alpha-2 code in capitals: write IE`,
      `${path}[0] (dublin) languages.0: must be a language tag as GBFS writes it: write en`,
      `${path}[0] (dublin) languages.1: must be a language tag as GBFS writes it: write pt-BR`,
    ]);
    // Good BCP 47 that GBFS's schemas refuse (a script, a region in digits), and an alpha-3 code:
    // said as such, with what GBFS takes.
    await writeFile(
      path,
      (await readFile(path, "utf8"))
        .replace('"country_code": "ie"', '"country_code": "IRL"')
        .replace(
          '"languages": ["EN", "pt_br"]',
          '"languages": ["zh-Hant-TW", "sr-Latn", "es-419"]',
        ),
    );
    const refused = (await readDataset(dir)).problems.filter((p) => p.severity === "error");
    expect(refused.map(formatProblem)).toEqual([
      `${path}[0] (dublin) country_code: must be the two-letter ISO 3166-1 code (alpha-2), not a three-letter one (IRL): e.g. FR, IE`,
      `${path}[0] (dublin) languages.0: has a script (Hant), which GBFS's schemas do not take: a language and a region only, write zh-TW`,
      `${path}[0] (dublin) languages.1: has a script (Latn), which GBFS's schemas do not take: a language and a region only, write sr`,
      `${path}[0] (dublin) languages.2: has a region in digits (419), which GBFS's schemas do not take: write es, or with a country's code (e.g. es-MX)`,
    ]);
  });

  it("refuses a contract's link that is not http(s) (the portal and GBFS publish it as a link)", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "contracts.json");
    const text = await readFile(path, "utf8");
    await writeFile(
      path,
      text.replace(
        '"url": "https://opendatacommons.org/licenses/odbl/1-0/"',
        '"url": "javascript:alert(1)"',
      ),
    );
    const errors = (await readDataset(dir)).problems.filter(isError);
    expect(errors.map(formatProblem)).toEqual([
      `${path}[1] (toulouse) license.url: must be an http or https URL, e.g. https://example.org/open-data`,
    ]);
  });

  it("refuses a link GBFS validators refuse as a URI (a space, an accent, a |, a stray %), saying how to write it", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "contracts.json");
    const text = await readFile(path, "utf8");
    await writeFile(
      path,
      text
        .replace('"https://www.dublinbikes.ie"', '"https://www.dublinbikes.ie/plan du réseau"')
        .replace(
          '"url": "https://opendatacommons.org/licenses/odbl/1-0/"',
          '"url": "https://example.org/licence|odbl%zz"',
        ),
    );
    const errors = (await readDataset(dir)).problems.filter(isError);
    expect(errors.map(formatProblem)).toEqual([
      `${path}[0] (dublin) operator.url: must be written as a URI, with its spaces, accents and signs percent-encoded: "https://www.dublinbikes.ie/plan%20du%20r%C3%A9seau"`,
      `${path}[1] (toulouse) license.url: must be written as a URI, and a % must start a percent-encoded byte (%25 for % itself)`,
    ]);
  });

  it("checks a state against the first of two stations with one number, not also the second", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "stations.csv");
    const csv = await readFile(path, "utf8");
    // dublin #42 again, with a capacity its state does not fit.
    const again = "dublin,42,AGAIN,Again,53.3,-6.2,false,false,false,1,";
    await writeFile(path, `${csv.trimEnd()}\r\n${again}\r\n`);
    const errors = (await readDataset(dir)).problems.filter(isError).map(formatProblem);
    expect(errors).toEqual([
      expect.stringMatching(/stations\.csv:\d+ \(dublin #42\) number: station 42 appears twice/),
    ]);
  });

  it("refuses a stations file with only its header, or an empty list: not an empty network published as valid", async () => {
    const header = stationsCsv.split("\n")[0] as string;
    const csv = await sourceDir({ "contracts.json": contracts, "stations.csv": `${header}\n` });
    expect((await readDataset(csv)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(csv, "stations.csv")}: has no stations: an export that wrote only its header?`,
    ]);
    // A field beside the list is a warning: it must not let the empty list through.
    const json = await sourceDir({
      "contracts.json": contracts,
      "stations.json": '{"exportedAt":"2026-01-01","stations":[]}',
    });
    expect((await readDataset(json)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(json, "stations.json")}: has no stations: an export that wrote an empty list?`,
    ]);
  });

  it("warns of a contract that states no licence, which GBFS 3.0 would publish as public domain", async () => {
    const unlicensed = contracts.replace(',"license":{"id":"ODbL-1.0"}', "");
    expect(unlicensed).not.toBe(contracts);
    const dir = await sourceDir({ "contracts.json": unlicensed, "stations.csv": stationsCsv });
    const warnings = (await readDataset(dir)).problems.filter((problem) => !isError(problem));
    expect(warnings.map(formatProblem)).toContainEqual(
      expect.stringMatching(/contracts\.json\[0\] \(lyon\) license: none stated: GBFS 3\.0 reads/),
    );
  });

  it("refuses control characters and broken characters in published text, saying which", async () => {
    const stations = JSON.stringify({
      stations: [
        lyonStation(1, "nul\u0000here", "tab\tand line\nbreak are text"),
        lyonStation(2, "Bellecour", "trail \ud83d"),
        lyonStation(3, "Terreaux 😀"),
      ],
    });
    const dir = await sourceDir({ "contracts.json": contracts, "stations.json": stations });
    expect((await readDataset(dir)).problems.filter(isError).map(formatProblem)).toEqual([
      `${join(dir, "stations.json")}[0] (lyon #1) name: holds a control character (U+0000): remove it`,
      `${join(dir, "stations.json")}[1] (lyon #2) address: holds half of a character (a lone UTF-16 surrogate): the export broke an emoji or other character in two`,
    ]);
  });

  it("warns of text encoded twice (UTF-8 read as Windows-1252 and saved), saying what was meant", async () => {
    const stations = JSON.stringify({
      stations: [
        lyonStation(1, "RÃ©publique", "Place de la RÃ©publique"),
        lyonStation(2, "Ã\u00a0 cÃ´tÃ© de lâ€™Ã‰glise", "São Paulo, Âge, Ã©"),
        lyonStation(3, "République", "Ça va, à côté"),
      ],
    });
    const dir = await sourceDir({ "contracts.json": contracts, "stations.json": stations });
    const file = join(dir, "stations.json");
    const said =
      "looks like UTF-8 read as Windows-1252 or Latin-1 and saved again (a spreadsheet opening a UTF-8 CSV)";
    const read = await readDataset(dir);
    expect(
      read.problems.filter((p) => / encoded|UTF-8 read as/.test(p.message)).map(formatProblem),
    ).toEqual([
      `${file}[0] (lyon #1) name: "RÃ©publique" ${said}: "République" meant? Export it again as UTF-8; published as given`,
      `${file}[0] (lyon #1) address: "Place de la RÃ©publique" ${said}: "Place de la République" meant? Export it again as UTF-8; published as given`,
      `${file}[1] (lyon #2) name: "Ã\u00a0 cÃ´tÃ© de lâ€™Ã‰glise" ${said}: "à côté de l’Église" meant? Export it again as UTF-8; published as given`,
      // "São" holds Ã and a letter: text as meant; "Ã©" beside it is not, but gives no text back.
      `${file}[1] (lyon #2) address: "São Paulo, Âge, Ã©" ${said}: export it again as UTF-8; published as given`,
    ]);
    expect(read.dataset?.stations[0]?.name).toBe("RÃ©publique");
  });

  it("warns once of a contract exported longitude first, at its first station, not of its right parkings", async () => {
    const swapped = (number: number) => ({
      ...lyonStation(number),
      latitude: Number((4.86 + number / 1000).toFixed(3)),
      longitude: 45.76,
    });
    const stations = JSON.stringify({ stations: [1, 2, 3, 4].map(swapped) });
    const parkings = JSON.stringify({ parkings: [lyonParking(1), lyonParking(2)] });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.json": stations,
      "parkings.json": parkings,
    });
    const said = (await readDataset(dir)).problems
      .filter(({ field }) => field === "latitude")
      .map(formatProblem);
    expect(said).toEqual([
      `${join(dir, "stations.json")}[0] (lyon #1) latitude: 4.861, 45.76 is outside the part of the world Europe/Paris is in (latitude 27 to 82, longitude -32 to 70), as are 4 of the contract's 6 stations and parkings: latitude and longitude swapped (an export that writes longitude first)?`,
    ]);
    // Put right, nothing is said.
    await writeFile(
      join(dir, "stations.json"),
      JSON.stringify({ stations: [1, 2, 3, 4].map((number) => lyonStation(number)) }),
    );
    const right = await readDataset(dir);
    expect(right.problems.filter(({ field }) => field === "latitude")).toEqual([]);
    // One station out among the rest: said as the only one, not as one of them.
    await writeFile(
      join(dir, "stations.json"),
      JSON.stringify({ stations: [swapped(1), ...[2, 3].map((number) => lyonStation(number))] }),
    );
    const one = (await readDataset(dir)).problems.filter(({ field }) => field === "latitude");
    expect(one.map(formatProblem)).toEqual([
      `${join(dir, "stations.json")}[0] (lyon #1) latitude: 4.861, 45.76 is outside the part of the world Europe/Paris is in (latitude 27 to 82, longitude -32 to 70), the only one of the contract's 5 stations and parkings: latitude and longitude swapped (an export that writes longitude first)?`,
    ]);
  });

  it("warns of a text thousands of characters long, a broken export's", async () => {
    const long = `Place Bellecour${" et la suite".repeat(200)}`;
    const stations = JSON.stringify({
      stations: [lyonStation(1, "Bellecour", "x".repeat(1000)), lyonStation(2, long)],
    });
    const dir = await sourceDir({ "contracts.json": contracts, "stations.json": stations });
    const said = (await readDataset(dir)).problems.filter(({ message }) =>
      message.includes("long"),
    );
    expect(said.map(formatProblem)).toEqual([
      `${join(dir, "stations.json")}[1] (lyon #2) name: is 2,415 characters long ("Place Bellecour et la suite et la suite …"): a quote left open in the export, or a file pasted into a cell? published as given`,
    ]);
  });

  it("reads an empty licence object as none: warned of, never published as a licence", async () => {
    const empty = contracts.replace(',"license":{"id":"ODbL-1.0"}', ',"license":{}');
    expect(empty).not.toBe(contracts);
    const dir = await sourceDir({ "contracts.json": empty, "stations.csv": stationsCsv });
    const { dataset, problems } = await readDataset(dir);
    expect(dataset?.contracts[0]?.license).toBeUndefined();
    expect(problems.map(formatProblem)).toContainEqual(
      expect.stringMatching(/contracts\.json\[0\] \(lyon\) license: none stated/),
    );
  });

  it("names a file with another case or a copy's suffix when the stations file is missing", async () => {
    const dir = await sourceDir({ "contracts.json": contracts, "Stations (1).CSV": stationsCsv });
    await expect(readDataset(dir)).rejects.toThrow(
      `missing source file: ${join(dir, "stations.json")} or ${join(dir, "stations.csv")}; found "Stations (1).CSV": rename it stations.csv (file names are read exactly, in lower case)`,
    );
    // A backup beside it is no copy to rename.
    const backup = await sourceDir({
      "contracts.json": contracts,
      "stations_old.csv": stationsCsv,
    });
    await expect(readDataset(backup)).rejects.toThrow(/^missing source file: [^;]*stations\.csv$/);
  });

  it("names the file likely meant for states and parkings too: another case, the singular, a hidden .txt", async () => {
    const parkings = JSON.stringify({ parkings: [] });
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv.txt": stationsCsv,
      "States.json": JSON.stringify({ states: [] }),
      "parking.json": parkings,
    });
    await expect(readDataset(dir)).rejects.toThrow(
      `missing source file: ${join(dir, "stations.json")} or ${join(dir, "stations.csv")}; found "stations.csv.txt": rename it stations.csv (file names are read exactly, in lower case)`,
    );
    await rename(join(dir, "stations.csv.txt"), join(dir, "stations.csv"));
    const said = (await readDataset(dir)).problems.map(formatProblem);
    expect(said).toContain(
      `${join(dir, "states.json")}: no state file: every station is published as CLOSED and disconnected; found "States.json": rename it states.json (file names are read exactly, in lower case)`,
    );
    expect(said).toContain(
      `${join(dir, "parkings.json")}: not found (nor parkings.csv), yet 1 contract offers the parking API (lyon): their parking answers are empty lists; check the file's name; found "parking.json": rename it parkings.json (file names are read exactly, in lower case)`,
    );
  });

  it("names every required file missing at once", async () => {
    const dir = await sourceDir({ "Contracts.JSON": contracts });
    const error = await readDataset(dir).catch((cause) => cause);
    expect([error.message, error.details]).toEqual([
      "missing source files:",
      [
        `${join(dir, "contracts.json")}; found "Contracts.JSON": rename it contracts.json (file names are read exactly, in lower case)`,
        `${join(dir, "stations.json")} or ${join(dir, "stations.csv")}`,
      ],
    ]);
  });

  it("refuses a source with both stations.json and stations.csv", async () => {
    const dir = await sourceDir({
      "contracts.json": contracts,
      "stations.csv": stationsCsv,
      "stations.json": '{"stations":[]}',
    });
    await expect(readDataset(dir)).rejects.toThrow(
      /both .*stations\.json and .*stations\.csv exist/,
    );
  });
});

describe("readDataset applies the parking rules", () => {
  it("rejects a parking of an unknown contract, out-of-range coordinates and a number used twice", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "parkings.json");
    const parkings = JSON.parse(await readFile(path, "utf8"));
    parkings.parkings[1].latitude = 147.2178; // nantes #12
    parkings.parkings[2].number = 89; // nantes #89 again
    parkings.parkings[3].contract = "lyom";
    await writeFile(path, JSON.stringify(parkings, null, 2));
    const errors = (await readDataset(dir)).problems
      .filter((problem) => problem.severity === "error")
      .map(formatProblem);
    expect(errors).toEqual(
      expect.arrayContaining([
        `${path}[1] (nantes #12) latitude: 147.2178 is outside -90..90 (degrees north; are latitude and longitude swapped?)`,
        expect.stringMatching(
          new RegExp(`^${path}\\[2\\] \\(nantes #89\\) number: parking 89 appears twice`),
        ),
        expect.stringMatching(
          new RegExp(`^${path}\\[3\\] \\(lyom #\\d+\\) contract: unknown contract "lyom"`),
        ),
      ]),
    );
    expect(errors).toHaveLength(3);
  });
});

describe("a key given twice in a JSON source file", () => {
  const twice = (where: string) =>
    `is given twice in the ${where} (JSON would silently keep the last one): keep one; an export mapping two columns to one field?`;

  it("is refused in each file, with the file, the record and the field", async () => {
    const dir = await lyonSource(3);
    const contractsFile = join(dir, "contracts.json");
    await writeFile(contractsFile, contracts); // with what GBFS needs
    const stations = join(dir, "stations.json");
    const states = join(dir, "states.json");
    const edit = async (path: string, from: string, to: string) => {
      const text = await readFile(path, "utf8");
      expect(text).toContain(from);
      await writeFile(path, text.replace(from, to));
    };
    await edit(contractsFile, '"country_code":"FR"', '"country_code":"FR","country_code":"BE"');
    await edit(stations, '"name":"S2"', '"name":"S2","name":"Gare"');
    await writeFile(states, JSON.stringify({ states: [lyonState(1), lyonState(2), lyonState(3)] }));
    await edit(states, '"mechanicalBikes":2', '"mechanicalBikes":2,"mechanicalBikes":7');
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${contractsFile}[0] (lyon) country_code: ${twice("record")}`,
      `${stations}[1] (lyon #2) name: ${twice("record")}`,
      `${states}[0] (lyon #1) mainStands.mechanicalBikes: ${twice("record")}`,
    ]);
  });

  it("is refused for the file's list itself: the first one would be dropped whole", async () => {
    const dir = await lyonSource(3);
    await writeFile(join(dir, "contracts.json"), contracts); // with what GBFS needs
    const stations = join(dir, "stations.json");
    await writeFile(
      stations,
      `{"stations":[${JSON.stringify(lyonStation(1))}],"stations":[${JSON.stringify(lyonStation(2))}]}`,
    );
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.filter(isError).map(formatProblem)).toEqual([
      `${stations} stations: ${twice("file")}`,
    ]);
  });

  it("is refused in a states file read against the last accepted one, only changed records parsed", async () => {
    const dir = await lyonSource(3);
    const path = join(dir, "states.json");
    const read = await readStatic(dir);
    const lines = (records: string[]) => `{"states":[\n${records.join(",\n")}\n]}\n`;
    const good = [1, 2, 3].map((number) => JSON.stringify(lyonState(number)));
    await writeFile(path, lines(good));
    const first = await readStates(read, path);
    expect(first.known).toBeDefined();
    const bad = [...good];
    bad[2] = (bad[2] as string).replace('"status":"OPEN"', '"status":"OPEN","status":"CLOSED"');
    await writeFile(path, lines(bad));
    const next = await readStates(read, path, first.known);
    expect(next.states).toBeUndefined();
    expect(next.problems.filter(isError).map(formatProblem)).toEqual([
      `${path}[2] (lyon #3) status: ${twice("record")}`,
    ]);
  });
});

describe("a states file's bytes", () => {
  /** Memory held in ArrayBuffers once everything unreachable is collected, in bytes. */
  async function heldInBuffers(): Promise<number> {
    // Twice: a buffer collected is freed by a sweep that may still run after the first; the
    // second collection finishes it first.
    await collectGarbage();
    await collectGarbage();
    return process.memoryUsage().arrayBuffers;
  }

  // Room after the records: what a read holds is then plain in the buffers' total.
  const PADDING = 32 << 20;

  /** The fixtures, their states file followed by PADDING spaces. */
  async function paddedStates(): Promise<{ dir: string; path: string }> {
    const dir = await fixtureCopy();
    const path = join(dir, "states.json");
    await writeFile(path, `${await readFile(path, "utf8")}${" ".repeat(PADDING)}`);
    return { dir, path };
  }

  it("are let go once read by a process that reads them once (a build)", async () => {
    const { dir } = await paddedStates();
    const before = await heldInBuffers();
    const { dataset } = await readDataset(dir);
    expect(dataset?.states.size).toBeGreaterThan(0);
    expect((await heldInBuffers()) - before).toBeLessThan(PADDING / 4);
  });

  it("are kept for the next read by a server, which reads them every minute", async () => {
    const { dir, path } = await paddedStates();
    const read = await readStatic(dir);
    const before = await heldInBuffers();
    const first = await readStates(read, path, undefined, { reuse: true });
    expect(first.states?.size).toBeGreaterThan(0);
    expect((await heldInBuffers()) - before).toBeGreaterThanOrEqual(PADDING);
  });
});
