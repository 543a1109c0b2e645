// A record its schema refused still has the rules of its own fields run on the fields that passed,
// and those of positions where its contract and coordinates passed, so that one run says every
// mistake of it; the other rules across records never see it.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, type Problem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { tempDir } from "../helpers.js";
import { lyonContract, lyonParking, lyonState, lyonStation } from "./lyon-source.js";

/** A source folder of these JSON files (`contracts`, `stations`, `parkings`: their lists). */
async function source(files: Record<string, unknown[]>): Promise<string> {
  const dir = join(await tempDir(), "source");
  await mkdir(dir);
  for (const [key, list] of Object.entries(files))
    await writeFile(join(dir, `${key}.json`), JSON.stringify({ [key]: list }));
  return dir;
}

/** The problems of `severity` said of records of `file`, without the folder. */
async function said(dir: string, file: string, severity: Problem["severity"]): Promise<string[]> {
  return (await readDataset(dir)).problems
    .filter((problem) => problem.severity === severity && problem.at.file === join(dir, file))
    .map((problem) => formatProblem(problem).slice(dir.length + 1));
}

describe("the rules of a record's own fields, on a record its schema refused", () => {
  it("say a refused station's other mistakes, its position far from its contract's others, nothing of its failed fields", async () => {
    const dir = await source({
      contracts: [lyonContract()],
      stations: [
        lyonStation(1),
        lyonStation(2),
        lyonStation(3),
        // Station 1 again, its own mistakes beside the schema's.
        { ...lyonStation(1, "GARE\u0007"), banking: "yes", latitude: 245, overflowCapacity: 3 },
        // In Paris, 390 km from Lyon's others: said in the run that says its bonus.
        { ...lyonStation(4), bonus: "no", latitude: 48.8566, longitude: 2.3522 },
        // Its overflow stands refused: not said to have none.
        { ...lyonStation(5), overflow: true, overflowCapacity: "many" },
        // Its latitude refused: its longitude checked all the same.
        { ...lyonStation(6), latitude: "north", longitude: 500 },
      ],
    });
    expect(await said(dir, "stations.json", "error")).toEqual([
      'stations.json[3] (lyon #1) banking: expected true or false, got "yes": English for true; write true',
      'stations.json[4] (lyon #4) bonus: expected true or false, got "no": English for false; write false',
      'stations.json[5] (lyon #5) overflowCapacity: expected number, got "many"',
      'stations.json[6] (lyon #6) latitude: expected number, got "north"',
      "stations.json[3] (lyon #1) name: holds a control character (U+0007): remove it",
      "stations.json[3] (lyon #1) latitude: 245 is outside -90..90 (degrees north; are latitude and longitude swapped?)",
      "stations.json[6] (lyon #6) longitude: 500 is outside -180..180 (degrees east)",
    ]);
    expect(await said(dir, "stations.json", "warning")).toEqual([
      "stations.json[3] (lyon #1) overflow: is false, yet overflowCapacity gives 3 overflow stands: not published, the record being left out for its errors; set overflow to true if the station takes overflow returns, or leave overflowCapacity empty (null in JSON) if it has no overflow stands",
      "stations.json[4] (lyon #4) latitude: 48.8566, 2.3522 is 393 km from the middle of its contract's others (45.76, 4.86): a wrong position?",
    ]);
  });

  it("read a refused station's overflowCapacity 0 as none, said, before the rules see it", async () => {
    const dir = await source({
      contracts: [lyonContract()],
      stations: [{ ...lyonStation(1), banking: 1, overflow: true, overflowCapacity: 0 }],
    });
    expect(await said(dir, "stations.json", "warning")).toEqual([
      "stations.json[0] (lyon #1) overflowCapacity: 0 read as no overflow stands (overflowStands null, as the API shows a station without them); leave it empty (null in JSON) where a station has none",
      "stations.json[0] (lyon #1) overflow: is true, yet overflowCapacity gives no overflow stands: not published, the record being left out for its errors; set overflow to false if the station takes no overflow returns, or give overflowCapacity its number of overflow stands",
    ]);
  });

  it("say a refused parking's other mistakes", async () => {
    const dir = await source({
      contracts: [{ ...lyonContract(), parkingApi: true }],
      stations: [lyonStation(1)],
      parkings: [
        lyonParking(1),
        { ...lyonParking(1), isFree: "oui", longitude: 200, name: "=HYPERLINK(1)" },
      ],
    });
    expect(await said(dir, "parkings.json", "error")).toEqual([
      'parkings.json[1] (lyon #1) isFree: expected true or false, got "oui": French for true; write true',
      "parkings.json[1] (lyon #1) longitude: 200 is outside -180..180 (degrees east)",
    ]);
    expect(await said(dir, "parkings.json", "warning")).toEqual([
      'parkings.json[1] (lyon #1) name: "=HYPERLINK(1)" starts as a formula does: a spreadsheet opening the CSV downloads runs it (CSV injection: it can send a reader\'s cells away, or start a command); check where it came from; not published, the record being left out for its errors',
    ]);
  });

  it("say a refused state's other mistakes: its time, its station, its counts against the station", async () => {
    const dir = await source({
      contracts: [lyonContract()],
      stations: [lyonStation(1), lyonStation(2), lyonStation(3)],
      states: [
        { ...lyonState(1), status: "open", lastUpdate: "2026-11-20 08:16" },
        { ...lyonState(2, 50), connected: "yes" },
        { ...lyonState(9), status: "open" },
        // Its contract refused: its time checked all the same, its station not looked up.
        { ...lyonState(3, 50), contract: 7, lastUpdate: "1970-01-01T00:00:00Z" },
      ],
    });
    expect(await said(dir, "states.json", "error")).toEqual([
      'states.json[0] (lyon #1) status: must be one of "OPEN", "CLOSED", got "open"',
      'states.json[1] (lyon #2) connected: expected true or false, got "yes": English for true; write true',
      'states.json[2] (lyon #9) status: must be one of "OPEN", "CLOSED", got "open"',
      'states.json[3] (7 #3) contract: expected text, got 7: write it in quotes, "7"',
      'states.json[0] (lyon #1) lastUpdate: "2026-11-20 08:16" lacks a T between the date and the time, seconds, a time zone: write it as 2026-11-20T08:16:00+01:00 if it is Europe/Paris time (its contract\'s timezone), or 2026-11-20T08:16:00Z if it is UTC',
      "states.json[1] (lyon #2) mainStands: bikes + stands is 53, more than the station's capacity of 10",
      'states.json[2] (lyon #9) number: no station 9 in contract "lyon"',
      'states.json[3] (7 #3) lastUpdate: "1970-01-01T00:00:00Z" is before 2015-12-15, the earliest time GBFS accepts: a placeholder? give null for a station that never reported',
    ]);
  });

  it("say a refused contract's text and licence mistakes, besides its GBFS fields'", async () => {
    const { license: _, ...unlicensed } = lyonContract("lyon", "fr");
    const dir = await source({
      contracts: [{ ...unlicensed, commercial_name: "Vélo\u0000v" }],
      stations: [lyonStation(1)],
    });
    expect(await said(dir, "contracts.json", "error")).toEqual([
      "contracts.json[0] (lyon) country_code: must be an ISO 3166-1 alpha-2 code in capitals: write FR",
      "contracts.json[0] (lyon) commercial_name: holds a control character (U+0000): remove it",
    ]);
    expect(await said(dir, "contracts.json", "warning")).toEqual([
      expect.stringMatching(/^contracts\.json\[0\] \(lyon\) license: none stated: /),
    ]);
  });
});
