#!/usr/bin/env node
// Benchmark: builds a synthetic network and reports ratios measured side by side in this run
// (incremental refresh vs full publish), with absolute figures as context only.
// Usage: npm run bench [-- --stations 1000000] [--dir /dev/shm/velodata-bench]
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "../dist/commands/build.js";
import { memoryOutput } from "../dist/commands/output.js";
import { publish } from "../dist/publish/publish.js";
import { seededRandom, simulate } from "../dist/serve/simulator.js";
import { readDataset } from "../dist/source/read-dataset.js";
import { updateTree } from "../dist/tree/update-tree.js";

const { values } = parseArgs({
  options: {
    stations: { type: "string", default: "100000" },
    contracts: { type: "string", default: "20" },
    dir: {
      type: "string",
      default: existsSync("/dev/shm") ? "/dev/shm/velodata-bench" : "bench-tmp",
    },
  },
});
const stationCount = Number(values.stations);
const contractCount = Number(values.contracts);
const dir = values.dir;

const seconds = async (work) => {
  const started = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - started) / 1000 };
};
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;

async function writeSource(source) {
  await mkdir(source, { recursive: true });
  const random = seededRandom(1);
  const contracts = Array.from({ length: contractCount }, (_, i) => ({
    name: `city${i}`,
    commercial_name: `Vélo ${i}`,
    country_code: "FR",
    cities: [`Ville ${i}`],
    parkingApi: false,
    timezone: "Europe/Paris",
    languages: ["fr"],
    feed_contact_email: "gbfs@example.org",
    opening_hours: "24/7",
    bikeTypes: { mechanical: {}, electricalRemovableBattery: { max_range_meters: 50000 } },
  }));
  await writeFile(join(source, "contracts.json"), JSON.stringify({ contracts }));
  const header =
    "contract,number,name,address,latitude,longitude,banking,bonus,overflow,capacity,overflowCapacity\n";
  const rows = [header];
  const states = [];
  for (let i = 0; i < stationCount; i++) {
    const contract = `city${i % contractCount}`;
    const capacity = 10 + Math.floor(random() * 30);
    const bikes = Math.floor(random() * capacity);
    const electric = Math.floor(bikes / 3);
    rows.push(
      `${contract},${i},STATION ${i} - PLACE DE LA RÉPUBLIQUE,${i} rue de la Gare,${(45 + random()).toFixed(6)},${(4 + random()).toFixed(6)},true,false,false,${capacity},\n`,
    );
    states.push(
      JSON.stringify({
        contract,
        number: i,
        status: "OPEN",
        connected: true,
        lastUpdate: "2026-11-20T08:15:00Z",
        mainStands: {
          stands: capacity - bikes,
          mechanicalBikes: bikes - electric,
          electricalInternalBatteryBikes: 0,
          electricalRemovableBatteryBikes: electric,
        },
      }),
    );
  }
  await writeFile(join(source, "stations.csv"), rows);
  // Written piece by piece: a million states would not fit in one JSON.stringify.
  await writeFile(join(source, "states.json"), ['{"states":[', states.join(","), "]}"]);
}

if (!process.env.KEEP) await rm(dir, { recursive: true, force: true });
const source = join(dir, "source");
const out = join(dir, "out");
console.log(`velodata bench: ${stationCount} stations in ${contractCount} contracts, under ${dir}`);
await writeSource(source);

const full = await seconds(() => build({ source, out, output: memoryOutput() }));
console.log(
  `build (read, validate, render, zip, write): ${full.seconds.toFixed(1)} s, ${full.result.files} files, ${mb(full.result.bytes)}`,
);

const { dataset } = await readDataset(source);
const first = await seconds(() => publish(dataset, { generatedAt: new Date() }));
const states = simulate(dataset.stations, dataset.states, new Date(), seededRandom(2));
const next = { ...dataset, states };
const staticFiles = new Map(
  [...first.result.release.files].filter(([, file]) => file.freshness === "static"),
);
const incremental = await seconds(() =>
  publish(next, { generatedAt: new Date(), cache: first.result.cache }, staticFiles),
);
const write = await seconds(() => updateTree(incremental.result.release, out));
const before = first.result.release.files;
const changed = [...incremental.result.release.files].filter(
  ([path, file]) => before.get(path) !== file,
).length;

console.log(`full publish (render everything in memory): ${first.seconds.toFixed(2)} s`);
console.log(`refresh publish (${changed} answers changed): ${incremental.seconds.toFixed(2)} s`);
console.log(
  `refresh tree update: ${write.result.files} files rewritten in ${write.seconds.toFixed(2)} s`,
);
console.log(
  `ratio full publish / refresh publish: ${(first.seconds / incremental.seconds).toFixed(1)}×`,
);
console.log(
  `ratio full build / refresh (publish + tree update): ${(full.seconds / (incremental.seconds + write.seconds)).toFixed(1)}×`,
);
console.log(`peak resident memory: ${mb(process.resourceUsage().maxRSS * 1024)}`);
if (!process.env.KEEP) await rm(dir, { recursive: true, force: true });
