// kill -9 at chosen and random points of builds and refreshes of a generated network: the tree is
// always one whole release after a build, and after the next refresh whatever a killed one left.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as wait } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/serve/simulator.js";
import { readTree } from "../../src/tree/read-tree.js";
import { ROOT, runCli } from "../helpers.js";
import { treeFiles } from "./tree-helpers.js";

const STATIONS = 2000;
const CONTRACTS = 4;
let dir: string;
let source: string;
const state = { A: "", B: "" };
const reference: Record<"A" | "B", Record<string, string>> = { A: {}, B: {} };

async function writeNetwork(): Promise<void> {
  await mkdir(source);
  const contracts = Array.from({ length: CONTRACTS }, (_, i) => ({
    name: `city${i}`,
    commercial_name: `Vélo ${i}`,
    country_code: "FR",
    cities: [`Ville ${i}`],
    timezone: "Europe/Paris",
    languages: ["fr"],
    feed_contact_email: "gbfs@example.org",
    opening_hours: "24/7",
    bikeTypes: { mechanical: {} },
  }));
  await writeFile(join(source, "contracts.json"), JSON.stringify({ contracts }));
  const rows = [
    "contract,number,name,address,latitude,longitude,banking,bonus,overflow,capacity,overflowCapacity",
  ];
  for (let i = 0; i < STATIONS; i++)
    rows.push(
      `city${i % CONTRACTS},${i},STATION ${i},${i} rue de la Gare,45.${i},4.${i},true,false,false,20,`,
    );
  await writeFile(join(source, "stations.csv"), `${rows.join("\n")}\n`);
  for (const [name, lastUpdate, bikes] of [
    ["A", "2026-01-01T08:00:00Z", 3],
    ["B", "2026-01-01T08:01:00Z", 7],
  ] as const) {
    const states = Array.from({ length: STATIONS }, (_, i) => ({
      contract: `city${i % CONTRACTS}`,
      number: i,
      status: "OPEN",
      connected: true,
      lastUpdate,
      mainStands: {
        stands: 20 - bikes,
        mechanicalBikes: bikes,
        electricalInternalBatteryBikes: 0,
        electricalRemovableBatteryBikes: 0,
      },
    }));
    state[name] = join(dir, `states-${name}.json`);
    await writeFile(state[name], JSON.stringify({ states }));
  }
}

const cli = (args: string[]): ChildProcess =>
  spawn(process.execPath, [join(ROOT, "bin/velodata.js"), ...args], { stdio: "ignore" });

/** Kills the process with SIGKILL as soon as `ready()` holds (polled), or lets it end; says whether it was killed. */
async function killWhen(child: ChildProcess, ready: () => boolean): Promise<boolean> {
  const ended = new Promise<boolean>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal === "SIGKILL")),
  );
  let done = false;
  void ended.then(() => (done = true));
  while (!done && !ready()) await wait(2);
  child.kill("SIGKILL");
  return ended;
}

const store = () => join(dir, ".out.velodata/releases");
const releaseFolders = () => (existsSync(store()) ? readdirSync(store()) : []);
const out = () => join(dir, "out");
const build = (name: "A" | "B") => [
  "build",
  "--source",
  source,
  "--state",
  state[name],
  "--out",
  out(),
];
const refresh = (name: "A" | "B") => [
  "refresh",
  "--source",
  source,
  "--state",
  state[name],
  "--out",
  out(),
];

beforeAll(async () => {
  dir = await mkdtemp(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "velodata-crash-"));
  source = join(dir, "source");
  await writeNetwork();
  for (const name of ["A", "B"] as const) {
    const tree = join(dir, `ref-${name}`);
    const result = await runCli([
      "build",
      "--source",
      source,
      "--state",
      state[name],
      "--out",
      tree,
    ]);
    expect(result.code, result.stderr).toBe(0);
    reference[name] = treeFiles(tree);
  }
  expect(reference.A).not.toEqual(reference.B);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("kill -9", () => {
  it("during a build leaves one whole release served, never a mix or nothing", async () => {
    expect((await runCli(build("A"))).code).toBe(0);
    const random = seededRandom(6);
    const points: [string, () => boolean][] = [
      ["while writing files", () => releaseFolders().length > 1],
      [
        "before the switch",
        () =>
          releaseFolders().some((name) => existsSync(join(store(), name, "manifest.json"))) &&
          releaseFolders().length > 1,
      ],
      [
        "at a random moment",
        (() => {
          const at = Date.now() + random() * 1500;
          return () => Date.now() >= at;
        })(),
      ],
    ];
    for (const [index, [when, ready]] of points.entries()) {
      const target = index % 2 === 0 ? "B" : "A";
      await killWhen(cli(build(target)), ready);
      const files = treeFiles(out());
      expect([reference.A, reference.B], when).toContainEqual(files);
      expect(readTree(out()).manifest?.release, when).toBeDefined();
    }
    expect((await runCli(build("B"))).code).toBe(0);
    expect(treeFiles(out())).toEqual(reference.B);
    expect(releaseFolders()).toHaveLength(1);
  }, 60_000);

  it("during a refresh: the next refresh leaves exactly the release it reports", async () => {
    expect((await runCli(build("A"))).code).toBe(0);
    const random = seededRandom(9);
    const paths = () => readTree(out()).release;
    const points: [string, () => boolean][] = [
      ["while staging", () => existsSync(paths().incoming)],
      ["while moving files in", () => existsSync(paths().dirty)],
      [
        "at a random moment",
        (() => {
          const at = Date.now() + random() * 1500;
          return () => Date.now() >= at;
        })(),
      ],
    ];
    for (const [when, ready] of points) {
      const killed = await killWhen(cli(refresh("B")), ready);
      if (killed && when === "while moving files in")
        expect(readTree(out()).interrupted, when).toBe(true);
      // Back to A: files the killed run already moved to B must not be trusted to be A's.
      const result = await runCli(refresh("A"));
      expect(result.code, when).toBe(0);
      expect(treeFiles(out()), when).toEqual(reference.A);
      expect(readTree(out()).manifest?.release, when).toBeDefined();
    }
  }, 60_000);
});
