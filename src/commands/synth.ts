// `velodata synth`: a seeded synthetic network and minutes of states, as a source folder, for sizing and benchmarks.
import { existsSync, readdirSync, statSync } from "node:fs";
import { refusedWrite, UserError } from "../errors.js";
import { counted } from "../plural.js";
import { seededRandom } from "../serve/simulator.js";
import { firstMinute, nextMinute } from "../synth/minutes.js";
import { synthNetwork } from "../synth/network.js";
import { removeSource, statesFileOf, writeMinute, writeNetwork } from "../synth/write-source.js";
import { refuseInsideTree } from "../tree/inside-tree.js";
import { type Output, terminalOutput } from "./output.js";

export interface SynthOptions {
  stations: number;
  /** Default: one per 2,000 stations, the size of a big city's network. */
  contracts?: number;
  /** Share of the stations whose state changes from one minute to the next (0 to 1). */
  changed?: number;
  /** Minutes of states after the first (`states-1.json` … `states-N.json`). */
  minutes?: number;
  seed?: number;
  /** The first minute; later ones follow a minute apart. Fixed by default so output is repeatable. */
  start?: Date;
  out: string;
  output?: Output;
}

export const STATIONS_PER_CONTRACT = 2000;
const DEFAULT_START = new Date("2026-01-05T08:00:00Z");

/**
 * A folder already holding a source would mix with the new network (an earlier `stations.csv`
 * beside the new `stations.json`, earlier `states-N.json` past `--minutes`), and any other folder
 * with files would get a network among them (`--out /`, `--out .` in a project): refused, never
 * cleared, as it may be someone's real data.
 */
function refuseMixing(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new UserError(`--out ${out} is a file, not a folder`);
  const names = readdirSync(out).sort();
  if (names.length === 0) return;
  const source = names.filter((name) =>
    /^(contracts\.json|(stations|parkings)\.(json|csv)|portal\.json|states(-\d+)?\.json)$/.test(
      name,
    ),
  );
  const listed = (some: string[]) => some.slice(0, 4).join(", ") + (some.length > 4 ? ", …" : "");
  throw new UserError(
    source.length > 0
      ? `${out} already holds a source (${listed(source)}): give a new or empty folder (or remove it first)`
      : `${out} is not empty (${listed(names)}): give a new or empty folder for the network`,
  );
}

const MAX_STATIONS = 5_000_000;
const MAX_MINUTES = 1440;

export async function synth(options: SynthOptions): Promise<{ files: string[] }> {
  const output = options.output ?? terminalOutput();
  const contracts =
    options.contracts ?? Math.max(1, Math.ceil(options.stations / STATIONS_PER_CONTRACT));
  const changed = options.changed ?? 0.1;
  const minutes = options.minutes ?? 3;
  const start = options.start ?? DEFAULT_START;
  // Made whole in memory before a byte is written (~1.5 GB a million stations): past these the
  // process would die of its heap minutes in, or fill the disk a minute at a time.
  if (options.stations > MAX_STATIONS)
    throw new UserError(
      `--stations ${options.stations} is more than the ${MAX_STATIONS.toLocaleString("en")} a network is made of here`,
    );
  if (minutes > MAX_MINUTES)
    throw new UserError(`--minutes ${minutes} is more than a day's (${MAX_MINUTES})`);
  if (changed < 0 || changed > 1)
    throw new UserError(`--changed is ${changed}: give a share from 0 to 1, e.g. 0.1 for 10%`);
  if (contracts > options.stations)
    throw new UserError(
      `--contracts ${contracts} is more than --stations ${options.stations}: every contract needs a station`,
    );

  refuseInsideTree(options.out, "--out");
  refuseMixing(options.out);

  const random = seededRandom(options.seed ?? 1);
  const network = synthNetwork(options.stations, contracts, random);
  const files: string[] = [];
  try {
    await writeNetwork(options.out, network);
    let states = firstMinute(network.stations, start, random);
    files.push(await writeMinute(options.out, 0, states));
    for (let minute = 1; minute <= minutes; minute++) {
      const at = new Date(start.getTime() + minute * 60_000);
      states = nextMinute(states, at, changed, random);
      files.push(await writeMinute(options.out, minute, states));
    }
  } catch (cause) {
    // Every source file there is this run's (refuseMixing): a half network would only be refused
    // by the next synth into the same folder.
    await removeSource(options.out, minutes);
    // Its files are written as `.partial` first: the folder given is the place to name.
    throw refusedWrite(cause, `--out ${options.out}`);
  }
  output.info(
    `wrote ${options.out}: ${counted(contracts, "contract")}, ${counted(network.stations.length, "station")}, ${counted(network.parkings.length, "parking")}, ` +
      `${statesFileOf(0)} and ${counted(minutes, "more minute", "more minutes")} with ${Math.round(changed * 100)}% of the stations changed each`,
  );
  return { files };
}
