// A station's overflow stands as a source gives them: 0 is none, stands and "overflow" agree,
// and a state's overflow stands need a station that has them, in CSV and JSON alike.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderStationV3 } from "../../src/publish/render/v3.js";
import { formatProblem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { tempDir } from "../helpers.js";
import { lyonContract, lyonState, lyonStation } from "./lyon-source.js";

const contracts = JSON.stringify({ contracts: [lyonContract()] });
const HEADER =
  "contract,number,name,address,latitude,longitude,banking,bonus,overflow,capacity,overflowCapacity";
const stationsCsv = (...rows: string[]) => [HEADER, ...rows].join("\n");

/** A source folder of Lyon's contract, the stations file `name` and, when given, states. */
async function source(name: string, stations: string, states?: unknown[]): Promise<string> {
  const dir = join(await tempDir(), "source");
  await mkdir(dir);
  await writeFile(join(dir, "contracts.json"), contracts);
  await writeFile(join(dir, name), stations);
  if (states) await writeFile(join(dir, "states.json"), JSON.stringify({ states }));
  return dir;
}

const said = (problems: readonly { severity: string }[], severity: string) =>
  (problems as Parameters<typeof formatProblem>[0][])
    .filter((problem) => problem.severity === severity)
    .map(formatProblem);

const ZERO_READ_AS_NONE =
  "overflowCapacity: 0 read as no overflow stands (overflowStands null, as the API shows a station without them); leave it empty (null in JSON) where a station has none";

describe("overflow stands", () => {
  it("reads 0 overflow stands in a CSV as none, said at its line, and publishes overflowStands null", async () => {
    const dir = await source(
      "stations.csv",
      stationsCsv("lyon,1,S1,,45.76,4.86,false,false,false,20,0"),
    );
    const { dataset, problems } = await readDataset(dir);
    expect(said(problems, "warning")).toContain(
      `${join(dir, "stations.csv")}:2 (lyon #1) ${ZERO_READ_AS_NONE}`,
    );
    const station = dataset?.stations[0];
    expect(station?.overflowCapacity).toBeNull();
    expect(station && renderStationV3(station).overflowStands).toBeNull();
  });

  it("reads 0 overflow stands in JSON as none, said at its record", async () => {
    const stations = JSON.stringify({ stations: [{ ...lyonStation(1), overflowCapacity: 0 }] });
    const dir = await source("stations.json", stations);
    const { dataset, problems } = await readDataset(dir);
    expect(said(problems, "warning")).toContain(
      `${join(dir, "stations.json")}[0] (lyon #1) ${ZERO_READ_AS_NONE}`,
    );
    expect(dataset?.stations[0]?.overflowCapacity).toBeNull();
  });

  it("warns of overflow stands beside overflow false, in CSV and in JSON, saying both ways out", async () => {
    const message =
      "overflow: is false, yet overflowCapacity gives 3 overflow stands: published as given; set overflow to true if the station takes overflow returns, or leave overflowCapacity empty (null in JSON) if it has no overflow stands";
    const csv = await source(
      "stations.csv",
      stationsCsv(
        "lyon,1,S1,,45.76,4.86,false,false,true,20,3",
        "lyon,2,S2,,45.76,4.86,false,false,false,20,3",
      ),
    );
    const fromCsv = await readDataset(csv);
    expect(said(fromCsv.problems, "warning")).toContain(
      `${join(csv, "stations.csv")}:3 (lyon #2) ${message}`,
    );
    expect(said(fromCsv.problems, "warning").join("\n")).not.toContain("lyon #1) overflow:");
    // Published as given: the stands stay, beside overflow false.
    expect(fromCsv.dataset?.stations[1]?.overflowCapacity).toBe(3);
    const stations = { stations: [{ ...lyonStation(1), overflowCapacity: 3 }] };
    const json = await source("stations.json", JSON.stringify(stations));
    expect(said((await readDataset(json)).problems, "warning")).toContain(
      `${join(json, "stations.json")}[0] (lyon #1) ${message}`,
    );
  });

  it("warns of overflow true without overflow stands, empty or 0, in CSV and in JSON, saying both ways out", async () => {
    const message =
      "overflow: is true, yet overflowCapacity gives no overflow stands: published as given (overflowStands null); set overflow to false if the station takes no overflow returns, or give overflowCapacity its number of overflow stands";
    const csv = await source(
      "stations.csv",
      stationsCsv(
        "lyon,1,S1,,45.76,4.86,false,false,true,20,",
        "lyon,2,S2,,45.76,4.86,false,false,true,20,0",
        "lyon,3,S3,,45.76,4.86,false,false,true,20,4",
        "lyon,4,S4,,45.76,4.86,false,false,false,20,",
      ),
    );
    const fromCsv = await readDataset(csv);
    const file = join(csv, "stations.csv");
    const overflowLines = said(fromCsv.problems, "warning").filter((line) =>
      line.includes(") overflow"),
    );
    expect(overflowLines).toEqual([
      `${file}:3 (lyon #2) ${ZERO_READ_AS_NONE}`,
      `${file}:2 (lyon #1) ${message}`,
      `${file}:3 (lyon #2) ${message}`,
    ]);
    const stations = { stations: [{ ...lyonStation(1), overflow: true }] };
    const json = await source("stations.json", JSON.stringify(stations));
    expect(said((await readDataset(json)).problems, "warning")).toContain(
      `${join(json, "stations.json")}[0] (lyon #1) ${message}`,
    );
  });

  it("reads a state's overflow stands of all zeros as none for a station without them, refuses any bike or stand there", async () => {
    const empty = {
      stands: 0,
      mechanicalBikes: 0,
      electricalInternalBatteryBikes: 0,
      electricalRemovableBatteryBikes: 0,
    };
    const states = [
      { ...lyonState(1), overflowStands: empty },
      { ...lyonState(2), overflowStands: { ...empty, stands: 2 } },
    ];
    const dir = await source(
      "stations.csv",
      stationsCsv(
        "lyon,1,S1,,45.76,4.86,false,false,false,20,0",
        "lyon,2,S2,,45.76,4.86,false,false,false,20,",
      ),
      states,
    );
    expect(said((await readDataset(dir)).problems, "error")).toEqual([
      `${join(dir, "states.json")}[1] (lyon #2) overflowStands: the station has no overflow stands (its overflowCapacity is empty or 0 in the station data): give null, or fill in its overflowCapacity`,
    ]);
    await writeFile(
      join(dir, "states.json"),
      JSON.stringify({ states: [states[0], lyonState(2)] }),
    );
    const { dataset } = await readDataset(dir);
    const [first] = dataset?.stations ?? [];
    expect(
      first && renderStationV3(first, dataset?.states.get("lyon/1")).overflowStands,
    ).toBeNull();
  });
});
