// The CLI as a user meets it: real processes, real folders.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import {
  appendFile,
  copyFile,
  cp,
  mkdir,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { extname, join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ROUTE_LIST } from "../../src/routes/routes.js";
import {
  BIN,
  besidesFixtureWarning,
  FIXTURES,
  fixtureCopy,
  JOINED_BROTLI_START,
  runCli,
  runShell,
  tempDir,
} from "../helpers.js";

async function treeHashes(root: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    hashes.set(
      relative(root, path),
      createHash("sha256")
        .update(await readFile(path))
        .digest("hex"),
    );
  }
  return hashes;
}

const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8"));

/** From the route table: each GBFS row of a contract once, a `{feed}` row once per feed. */
function gbfsFilesPerContract(): number {
  return ROUTE_LIST.filter((route) => route.path.startsWith("/contracts/{contract}/gbfs/")).reduce(
    (sum, route) =>
      sum +
      Object.values(route.params).reduce(
        (n, p) => n * (p.kind === "oneOf" ? p.values.length : 1),
        1,
      ),
    0,
  );
}

// A public base URL: a build without one says its tree is meant for this machine.
const BASE = "https://bikes.example.org";

describe("velodata build", () => {
  it("builds every documented file of the fixtures, parseable, with the right counts, and a summary", async () => {
    const out = join(await tempDir(), "out");
    const result = await runCli(["build", "--source", FIXTURES, "--out", out]);
    // Without --base-url, a tree meant for localhost: said, as it names no public address.
    expect(besidesFixtureWarning(result.stderr)).toBe(
      "warning: no --base-url: the GBFS discovery files and the OpenAPI document name http://127.0.0.1:8080, which no other machine can reach; give --base-url https://… (the public address) for a tree to publish\n",
    );
    expect(result.code).toBe(0);
    // v3 and v1: contracts + all stations + 5 contract lists + 413 stations; 5 × (JSON + CSV)
    // downloads + 2 parking lists + 5 parkings + zip + openapi.json; GBFS: 5 × its files per
    // contract + the manifest; the portal's files (route table)
    const portal = ROUTE_LIST.filter((route) => route.tag === "portal").length;
    const files =
      2 * (1 + 1 + 5 + 413) + 10 + 2 + 5 + 1 + 1 + 5 * gbfsFilesPerContract() + 1 + portal;
    expect(result.stdout).toMatch(
      new RegExp(`built .*: 5 contracts, 413 stations, 5 parkings → ${files} answers, .* in .* s`),
    );

    expect(await readJson(join(out, "vls/v3/contracts.json"))).toHaveLength(5);
    expect(await readJson(join(out, "vls/v3/stations.json"))).toHaveLength(413);
    const perContract = { dublin: 114, toulouse: 287, lyon: 3, nantes: 5, besancon: 4 };
    for (const [contract, count] of Object.entries(perContract)) {
      expect(await readJson(join(out, `vls/v3/stations/${contract}.json`))).toHaveLength(count);
      expect(await readdir(join(out, `vls/v3/stations/${contract}`))).toHaveLength(count);
      expect(await readJson(join(out, `rest/vls/stations/${contract}.json`))).toHaveLength(count);
      const csv = await readFile(join(out, `rest/vls/stations/${contract}.csv`), "utf8");
      expect(csv.split("\r\n").filter(Boolean)).toHaveLength(count + 1);
    }
    expect(await readJson(join(out, "vls/v3/stations/toulouse/55.json"))).toMatchObject({
      number: 55,
      contractName: "toulouse",
    });
    expect(await readJson(join(out, "parking/v1/contracts/nantes/parks.json"))).toHaveLength(3);
    expect(await readJson(join(out, "parking/v1/contracts/nantes/parks/89.json"))).toMatchObject({
      city: "Rezé",
    });
    expect(await readdir(join(out, "parking/v1/contracts"))).toEqual(["lyon", "nantes"].sort());
    expect(
      (await readFile(join(out, "download/velodata-static.zip"))).subarray(0, 2).toString(),
    ).toBe("PK");
  });

  it("gives a byte-identical tree for the same input", async () => {
    const parent = await tempDir();
    await runCli(["build", "--source", FIXTURES, "--out", join(parent, "a")]);
    await runCli(["build", "--source", FIXTURES, "--out", join(parent, "b")]);
    const a = await treeHashes(join(parent, "a"));
    expect(a.size).toBeGreaterThan(400);
    expect(await treeHashes(join(parent, "b"))).toEqual(a);
  });

  /** How many `.gz` and `.br` siblings the tree has, each checked to decode to its file's bytes. */
  async function decodingSiblings(out: string): Promise<number> {
    let siblings = 0;
    for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
      const decode = { ".gz": gunzipSync, ".br": brotliDecompressSync }[extname(entry.name)];
      if (!entry.isFile() || !decode) continue;
      const sibling = join(entry.parentPath, entry.name);
      const file = await readFile(sibling.slice(0, -3));
      expect(decode(await readFile(sibling)).equals(file), sibling).toBe(true);
      siblings++;
    }
    return siblings;
  }

  it("writes `.gz` and `.br` siblings that decode to their file's bytes", async () => {
    const out = join(await tempDir(), "out");
    await runCli(["build", "--source", FIXTURES, "--out", out]);
    // Lists, feeds, the portal's page, the OpenAPI document, Swagger UI: both forms of each.
    expect(await decodingSiblings(out)).toBeGreaterThan(80);
  });

  it("makes the siblings of each list of all stations of its contracts' lists, decoding to its bytes", async () => {
    // Contracts of ~400 stations: lists big enough to be compressed at levels whose pieces join.
    const dir = await tempDir();
    const source = join(dir, "source");
    expect(
      (await runCli(["synth", "--stations", "1200", "--contracts", "3", "--out", source])).code,
    ).toBe(0);
    const out = join(dir, "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    for (const list of ["vls/v3/stations.json", "vls/v1/stations.json"])
      expect([...(await readFile(join(out, `${list}.br`))).subarray(0, 6)], list).toEqual(
        JOINED_BROTLI_START,
      );
    expect(await decodingSiblings(out)).toBeGreaterThan(20);
  });

  it("fails on bad data with every problem located, no stack trace, and leaves the previous tree intact", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await treeHashes(out);

    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    await writeFile(
      csv,
      text
        .replace(
          "dublin,42,SMITHFIELD NORTH,Smithfield North,53.349562",
          "dublin,42,SMITHFIELD NORTH,Smithfield North,153.349562",
        )
        .replace("\ntoulouse,55,", "\ntoulose,55,"),
    );
    const states = join(source, "states.json");
    await writeFile(
      states,
      (await readFile(states, "utf8")).replace('"bikes": 27,', '"bikes": 26,'),
    );

    const result = await runCli(["build", "--source", source, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "velodata: the source data has 4 errors; nothing was published",
    );
    expect(result.stderr).toContain(
      `error: ${csv}:119 (toulose #55) contract: unknown contract "toulose" (not in contracts.json)`,
    );
    expect(result.stderr).toContain(
      `error: ${csv}:2 (dublin #42) latitude: 153.349562 is outside -90..90`,
    );
    expect(result.stderr).toContain(
      `error: ${states}[0] (dublin #42) mainStands: bikes is 26 but mechanicalBikes + electricalBikes is 27`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await treeHashes(out)).toEqual(before);
  });

  it("names the public base URL in the OpenAPI document, from --base-url or VELODATA_BASE_URL", async () => {
    const out = join(await tempDir(), "out");
    const servers = async () =>
      JSON.parse(await readFile(join(out, "openapi.json"), "utf8")).servers;
    const env = { VELODATA_BASE_URL: "https://env.example.org" };
    expect((await runCli(["build", "-s", FIXTURES, "-o", out], undefined, env)).code).toBe(0);
    expect(await servers()).toEqual([{ url: "https://env.example.org" }]);
    const flag = [
      "build",
      "-s",
      FIXTURES,
      "-o",
      out,
      "--base-url",
      "https://bikes.example.org/api/",
    ];
    expect((await runCli(flag, undefined, env)).code).toBe(0);
    expect(await servers()).toEqual([{ url: "https://bikes.example.org/api" }]);
    const buildAt = (baseUrl: string) =>
      runCli(["build", "-s", FIXTURES, "-o", out, "--base-url", baseUrl]);
    const bad = await buildAt("bikes.example.org");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("must be an absolute URL");
    for (const withQuery of ["https://x.org/v?a=1", "https://x.org/v?", "https://x.org/v#"]) {
      const query = await buildAt(withQuery);
      expect(query.code, withQuery).toBe(1);
      expect(query.stderr).toContain("must be a plain base URL, with no query");
    }
    // Published in every GBFS link: written as a URI.
    const signs = await buildAt("https://x.org/a b|c");
    expect([signs.code, signs.stderr]).toEqual([
      1,
      expect.stringContaining(
        'must be written as a URI, with its spaces, accents and signs percent-encoded: "https://x.org/a%20b%7Cc"',
      ),
    ]);
    // Refused before it is parsed: a URL that does not parse, or not http(s), is echoed otherwise.
    for (const withSecret of [
      "https://publisher:hunter2@x.org",
      "ftp://publisher:hunter2@x.org",
      "https://publisher:hunter2@exa mple.org",
      "publisher:hunter2@x.org",
    ]) {
      const secret = await buildAt(withSecret);
      expect(secret.code, withSecret).toBe(1);
      expect(secret.stderr, withSecret).toContain("--base-url must not hold credentials");
      expect(secret.stderr, withSecret).not.toContain("hunter2");
    }
    // From the environment, the variable is the place to fix: --base-url was never given.
    const secretEnv = { VELODATA_BASE_URL: "https://publisher:hunter2@x.org" };
    const fromEnv = await runCli(["build", "-s", FIXTURES, "-o", out], undefined, secretEnv);
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(/^velodata: VELODATA_BASE_URL must not hold credentials/);
    expect(fromEnv.stderr).not.toContain("hunter2");
    // Given both, --base-url is the one read.
    const both = await runCli(flag.slice(0, -1).concat("https://p:hunter2@x.org"), undefined, env);
    expect(both.stderr).toMatch(/^velodata: --base-url must not hold credentials/);
  });

  it("says plainly when the source folder does not exist", async () => {
    const result = await runCli([
      "build",
      "--source",
      "/nonexistent/velodata",
      "--out",
      join(await tempDir(), "out"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("velodata: source folder not found: /nonexistent/velodata\n");
  });

  it("says how to give serve its states when the source folder has none", async () => {
    const source = await tempDir();
    for (const file of ["contracts.json", "stations.csv"])
      await copyFile(join(FIXTURES, file), join(source, file));
    const keys = join(await tempDir(), "keys.json");
    const result = await runCli(["serve", "--source", source, "--keys", keys, "--port", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `velodata: state file not found: ${join(source, "states.json")}\n  give the states file your feed writes with --state FILE, or try the server with simulated states: --simulate\n`,
    );
  });

  it("shows its progress on a terminal only, though it builds in a thread of its own", async () => {
    const out = join(await tempDir(), "out");
    const command = `${process.execPath} ${BIN} build --source ${FIXTURES} --out ${out}`;
    // `script` gives the command a terminal; with pipes it has none.
    const onTerminal = await runShell(`script -qec '${command}' /dev/null`);
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toContain("\r\x1b[Kreading source…");
    expect(onTerminal.stdout).toContain("built ");
    const piped = await runCli(["build", "--source", FIXTURES, "--out", out, "--base-url", BASE]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^built .*\n$/);
    expect(besidesFixtureWarning(piped.stderr)).toBe("");
  });

  it("builds whole and exits as it ends when the reader of its output leaves (build 2>&1 | head)", async () => {
    const out = join(await tempDir(), "out");
    // `head -c 0` reads nothing: the build's first line meets a closed pipe. Its own status is
    // written on a descriptor of its own, the pipeline's being head's.
    const build = (source: string) =>
      runShell(
        `exec 3>&1; { "${process.execPath}" "${BIN}" build --source "${source}" --out "${out}" 2>&1; echo "status $?" >&3; } | head -c 0`,
      );
    const built = await build(FIXTURES);
    expect(built.stdout).toBe("status 0\n");
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toContain('"dublin"');
    // A source in error is no success for being unread.
    const broken = await fixtureCopy();
    await writeFile(join(broken, "contracts.json"), "{");
    expect((await build(broken)).stdout).toBe("status 1\n");
  });

  it("says which path is a file or a folder where the other is expected", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const isFile = `velodata: ${csv} is a file: --source takes the folder holding contracts.json and stations.csv (or .json)\n`;
    let result = await runCli(["validate", "--source", csv]);
    expect([result.code, result.stderr]).toEqual([1, isFile]);
    // build and refresh read it first for its fingerprint: the same words.
    result = await runCli(["build", "--source", csv, "--out", join(source, "..", "out")]);
    expect([result.code, result.stderr]).toEqual([1, isFile]);
    const synth = await runCli(["synth", "--stations", "5", "--out", csv]);
    expect([synth.code, synth.stderr]).toEqual([
      1,
      `velodata: --out ${csv} is a file, not a folder\n`,
    ]);
    // Through a file: the path given is named, not a file of synth's under it.
    const under = join(csv, "x", "y");
    const through = await runCli(["synth", "--stations", "5", "--out", under]);
    expect([through.code, through.stderr]).toEqual([
      1,
      `velodata: ${under} goes through a file where a folder is expected: check each part of the path\n`,
    ]);
    const states = join(source, "states.json");
    await rm(states);
    await mkdir(states);
    result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `velodata: ${states} is a folder where a file is expected: give the path of a file\n`,
    );
    // A static file build and refresh read first, for the source's fingerprint.
    await rm(states, { recursive: true });
    await copyFile(join(FIXTURES, "states.json"), states);
    const out = join(source, "..", "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    await rm(csv);
    await mkdir(csv);
    // refresh refuses it as an edit in error, the minute's states published all the same (after
    // the stale feed's warning: the fixtures' states are old).
    for (const [command, left] of [
      ["build", ""],
      [
        "refresh",
        "; its change is not published: this minute's states were, against the static source last published",
      ],
    ] as const) {
      result = await runCli([command, "--source", source, "--state", states, "--out", out]);
      expect([result.code, result.stderr.split("\n").slice(-2)]).toEqual([
        1,
        [
          `velodata: ${csv} is a folder where a file is expected: give the path of a file${left}`,
          "",
        ],
      ]);
    }
    await rm(csv, { recursive: true });
    await copyFile(join(FIXTURES, "stations.csv"), csv);
    const missing = join(source, "gone.json");
    // The same once the static source changed, read whole by the full refresh.
    for (const edit of [false, true]) {
      if (edit) await appendFile(csv, "\n");
      result = await runCli(["refresh", "--source", source, "--state", missing, "--out", out]);
      expect([result.code, result.stderr]).toEqual([
        1,
        `velodata: state file not found: ${missing}; the tree is left as it was\n`,
      ]);
    }
    // With no tree to leave, nothing is said of one.
    const none = join(source, "..", "none");
    result = await runCli(["refresh", "--source", source, "--state", states, "--out", none]);
    expect([result.code, result.stderr]).toEqual([
      1,
      `velodata: no velodata tree at ${none}\n  run velodata build --out ${none} first\n`,
    ]);
  });
});

describe("data kept inside a published tree", () => {
  it("is refused, by build, refresh, serve and synth: the tree's next write would delete it", async () => {
    const dir = await tempDir();
    const out = join(dir, "out");
    expect((await runCli(["build", "--source", FIXTURES, "--out", out])).code).toBe(0);
    // Through the tree's own link: out/src lives in the release the next build removes.
    const source = join(out, "src");
    await cp(FIXTURES, source, { recursive: true });
    const inside = (option: string, path: string) =>
      `velodata: ${option} ${path} is inside the tree velodata publishes at ${out}: its next build or refresh would delete it`;
    const state = join(source, "states.json");
    for (const [args, option, path] of [
      [["build", "--source", source, "--out", out], "--source", source],
      [["build", "--source", FIXTURES, "--state", state, "--out", out], "--state", state],
      [["refresh", "--source", FIXTURES, "--state", state, "--out", out], "--state", state],
      [
        ["serve", "--source", source, "--keys", join(dir, "keys.json"), "--port", "0"],
        "--source",
        source,
      ],
      [
        ["serve", "--source", FIXTURES, "--keys", join(out, "keys.json"), "--port", "0"],
        "--keys",
        join(out, "keys.json"),
      ],
      [["synth", "--stations", "5", "--out", join(out, "synth")], "--out", join(out, "synth")],
      [["keys", "add", "--keys", join(out, "keys.json")], "--keys", join(out, "keys.json")],
    ] as const) {
      const refused = await runCli(args);
      expect([refused.code, besidesFixtureWarning(refused.stderr).split("\n")[0]], args[0]).toEqual(
        [1, inside(option, path)],
      );
    }
    expect(existsSync(join(source, "contracts.json"))).toBe(true);
  });

  it("says of a release's own folder given as the tree (its link's target) which path to give", async () => {
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", FIXTURES, "--out", out])).code).toBe(0);
    // What `readlink -f out` gives, pasted where the tree is asked for.
    const served = await realpath(out);
    const said = `velodata: ${served} is the folder velodata serves at ${out}, where that path's link leads`;
    for (const args of [
      ["build", "--source", FIXTURES, "--out", served],
      ["refresh", "--source", FIXTURES, "--state", join(FIXTURES, "states.json"), "--out", served],
      ["publish", "--out", served, "--to", "s3://bucket/prefix", "--dry-run"],
      ["nginx", "--tree", served, "--upstream", "http://127.0.0.1:8080"],
    ]) {
      const refused = await runCli(args);
      expect([refused.code, besidesFixtureWarning(refused.stderr).split("\n")[0]], args[0]).toEqual(
        [1, said],
      );
    }
    // A link of the user's own to that folder, and a folder inside it, are said as such too.
    const link = join(out, "..", "api");
    await symlink(served, link);
    const linked = await runCli(["nginx", "--tree", link, "--upstream", "http://127.0.0.1:8080"]);
    expect([linked.code, linked.stderr.split("\n")[0]]).toEqual([1, said]);
    const inner = join(served, "vls");
    const inside = await runCli(["nginx", "--tree", inner, "--upstream", "http://127.0.0.1:8080"]);
    expect([inside.code, inside.stderr.split("\n")[0]]).toEqual([
      1,
      `velodata: ${inner} is inside the tree velodata publishes at ${out}`,
    ]);
    // Nothing was written beside the release: the tree is as built.
    expect(await readdir(served)).toContain("vls");
    expect(await realpath(out)).toBe(served);
  });
});

describe("velodata validate", () => {
  it("reports the fixtures valid and writes nothing", async () => {
    const source = await fixtureCopy();
    const cwd = await tempDir();
    const before = await treeHashes(join(source, ".."));
    const result = await runCli(["validate", "--source", source], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("is valid: 5 contracts, 413 stations, 413 states, 5 parkings");
    // Neither the working folder (where build would put out/) nor the source changed.
    expect(await readdir(cwd)).toEqual([]);
    expect(await treeHashes(join(source, ".."))).toEqual(before);
  });

  it("names in its help every file a source folder may hold, as the README lists them", async () => {
    const result = await runCli(["validate", "--help"]);
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, " ");
    for (const file of [
      "contracts.json",
      "stations.json|csv",
      "parkings.json|csv",
      "states.json",
      "portal.json",
    ])
      expect(help).toContain(file);
  });

  it("prints warnings and still succeeds", async () => {
    const source = await fixtureCopy();
    const states = await readJson(join(source, "states.json"));
    states.states.shift();
    await writeFile(join(source, "states.json"), JSON.stringify(states));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "(dublin #42): no state: published as CLOSED and disconnected, with lastUpdate null",
    );
  });

  it("says how many errors, without speaking of publishing (it never publishes)", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    await writeFile(csv, (await readFile(csv, "utf8")).replace("\ntoulouse,55,", "\ntoulose,55,"));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("velodata: the source data has 2 errors\n");
    expect(result.stderr).toContain('unknown contract "toulose"');
  });

  it("lists the records' schema errors and the rules' errors together, in one run", async () => {
    const source = await fixtureCopy();
    const contracts = join(source, "contracts.json");
    const text = await readFile(contracts, "utf8");
    await writeFile(contracts, text.replace('"country_code": "IE"', '"country_code": "Ireland"'));
    const csv = join(source, "stations.csv");
    const rows = (await readFile(csv, "utf8"))
      .replace(/\ntoulouse,55,(.*),15,\r/, "\ntoulouse,55,$1,fifteen,\r")
      .trimEnd();
    const extra = [
      "dublin,30,PARNELL AGAIN,Parnell Square,53.3537,-6.2653,false,false,false,20,",
      "nowhere,1,NOWHERE,Nowhere,53.35,-6.27,false,false,false,10,",
    ];
    await writeFile(csv, `${rows}\r\n${extra.join("\r\n")}\r\n`);
    const statesPath = join(source, "states.json");
    const states = await readJson(statesPath);
    states.states.push({ ...states.states[0], number: 999999 });
    await writeFile(statesPath, JSON.stringify(states));

    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
    expect(errors).toEqual([
      `  error: ${contracts}[0] (dublin) country_code: must be an ISO 3166-1 alpha-2 code in capitals, e.g. FR`,
      `  error: ${csv}:119 (toulouse #55) capacity: expected number, got "fifteen"`,
      `  error: ${csv}:415 (dublin #30) number: station 30 appears twice in contract "dublin" (first on line 3)`,
      `  error: ${csv}:416 (nowhere #1) contract: unknown contract "nowhere" (not in contracts.json)`,
      `  error: ${statesPath}[413] (dublin #999999) number: no station 999999 in contract "dublin"`,
    ]);
    expect(result.stderr).toContain("velodata: the source data has 5 errors\n");
    // The station that failed its schema is left out of the rules: its state is not "unknown".
    expect(result.stderr).not.toContain("no station 55");
    // Nor are the stations of the contract that failed its schema on an "unknown contract".
    expect(result.stderr).not.toContain('unknown contract "dublin"');
  });

  it("says every mistake of a contract its schema refused, its own fields' rules among them", async () => {
    const source = await fixtureCopy();
    const contracts = join(source, "contracts.json");
    const file = await readJson(contracts);
    Object.assign(file.contracts[0], {
      country_code: "ie",
      timezone: "europe/dublin",
      languages: [],
      opening_hours: "Lu-Di 6h-23h",
      license: { id: "odbl-1.0" },
    });
    await writeFile(contracts, JSON.stringify(file));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
    const at = `  error: ${contracts}[0] (dublin)`;
    expect(errors).toEqual([
      `${at} country_code: must be an ISO 3166-1 alpha-2 code in capitals: write IE`,
      `${at} languages: required for the GBFS feeds: add "languages": ["fr"] (the languages of the names, main one first)`,
      `${at} timezone: "europe/dublin" is not a time zone GBFS accepts: write it "Europe/Dublin"`,
      expect.stringMatching(
        /^ {2}error: .* opening_hours: "Lu-Di 6h-23h" is not OSM opening_hours as written/,
      ),
      `${at} license.id: "odbl-1.0" is not an SPDX licence id GBFS accepts: write it "ODbL-1.0"`,
    ]);
    // A field its schema refused is not said missing again by the rule that wants it there.
    Object.assign(file.contracts[0], { country_code: "IE", languages: "en", timezone: 1 });
    await writeFile(contracts, JSON.stringify(file));
    const again = await runCli(["validate", "--source", source]);
    expect(again.stderr).not.toContain("required for the GBFS feeds");
    expect(again.stderr).toMatch(/\(dublin\) languages: expected array/);
    expect(again.stderr).toContain("opening_hours:");
  });

  it("says every mistake of a station or parking its schema refused, its own fields' rules among them", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const rows = (await readFile(csv, "utf8"))
      // Station 55: a word for true, a latitude out of range, overflow returns without stands.
      .replace(
        /\ntoulouse,55,(.*?),43\.608951960496405,(.*?),true,false,false,15,\r/,
        "\ntoulouse,55,$1,143.60895196,$2,oui,false,true,15,\r",
      )
      // Station 42, which passes its schema: overflow returns without stands too.
      .replace("false,false,false,30,\r", "false,false,true,30,\r");
    await writeFile(csv, rows);
    const parkingsPath = join(source, "parkings.json");
    const parkings = await readJson(parkingsPath);
    Object.assign(parkings.parkings[0], { isFree: "yes", longitude: -181.5490259 });
    await writeFile(parkingsPath, JSON.stringify(parkings));
    const result = await runCli(["validate", "--source", source]);
    const lines = result.stderr.split("\n");
    expect(lines.filter((line) => line.startsWith("  error: "))).toEqual([
      `  error: ${csv}:119 (toulouse #55) banking: expected true or false, got "oui": French for true; write true`,
      `  error: ${csv}:119 (toulouse #55) latitude: 143.60895196 is outside -90..90 (degrees north; are latitude and longitude swapped?)`,
      `  error: ${parkingsPath}[0] (nantes #89) isFree: expected true or false, got "yes": English for true; write true`,
      `  error: ${parkingsPath}[0] (nantes #89) longitude: -181.5490259 is outside -180..180 (degrees east)`,
    ]);
    const overflow = (outcome: string) =>
      `overflow: is true, yet overflowCapacity gives no overflow stands: ${outcome}; set overflow to false if the station takes no overflow returns, or give overflowCapacity its number of overflow stands`;
    // The refused station is not published: its warning does not say it is.
    expect(lines.filter((line) => line.includes(") overflow: "))).toEqual([
      `warning: ${csv}:119 (toulouse #55) ${overflow("not published, the record being left out for its errors")}`,
      `warning: ${csv}:2 (dublin #42) ${overflow("published as given (overflowStands null)")}`,
    ]);
  });
});

describe("a key given twice in a JSON record", () => {
  it("is refused by validate and build, saying the file, the record and the field; the tree stays", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await treeHashes(out);
    const states = join(source, "states.json");
    const text = await readFile(states, "utf8");
    expect(text).toContain('"bikes": 27,');
    await writeFile(states, text.replace('"bikes": 27,', '"bikes": 27,\n    "stands": 4,'));
    const said = `error: ${states}[0] (dublin #42) mainStands.stands: is given twice in the record (JSON would silently keep the last one): keep one; an export mapping two columns to one field?`;
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain(said);
    expect(validated.stderr).toContain("velodata: the source data has 1 error\n");
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.code).toBe(1);
    expect(built.stderr).toContain(said);
    expect(built.stderr).not.toMatch(/\n\s+at /);
    expect(await treeHashes(out)).toEqual(before);
  });
});

describe("many problems", () => {
  const lines = (stderr: string, kind: string) =>
    stderr.split("\n").filter((line) => line.trimStart().startsWith(`${kind}: `));

  it("lists errors in the order the files are read: the stations' before the states'", async () => {
    const source = await fixtureCopy();
    const path = join(source, "states.json");
    const states = await readJson(path);
    for (const state of states.states) state.status = "AJAR";
    await writeFile(path, JSON.stringify(states));
    const csv = join(source, "stations.csv");
    await writeFile(csv, (await readFile(csv, "utf8")).replace("\ntoulouse,55,", "\ntoulose,55,"));
    const build = await runCli(["build", "--source", source, "--out", join(source, "..", "out")]);
    const errors = lines(build.stderr, "error");
    // "states" sorts before "stations": the 50 shown were all the states file's.
    expect(errors[0]).toContain("stations.csv");
    expect(errors.filter((line) => line.includes("stations.csv")).length).toBeGreaterThan(0);
  });

  it("build prints the first errors and counts the rest; validate prints every one", async () => {
    const source = await fixtureCopy();
    const path = join(source, "states.json");
    const states = await readJson(path);
    // A field of its own in each state: 413 errors of as many kinds, none counted with others.
    states.states.forEach((state: Record<string, unknown>, index: number) => {
      state[`extra${index}`] = 1;
    });
    await writeFile(path, JSON.stringify(states));

    const build = await runCli(["build", "--source", source, "--out", join(source, "..", "out")]);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("the source data has 413 errors; nothing was published\n");
    const errors = lines(build.stderr, "error");
    expect(errors).toHaveLength(51);
    expect(errors.at(-1)).toBe(
      "  error: … and 363 more errors (`velodata validate --all`, given the same --source and --state, lists every one)",
    );
    // Nothing is published: warnings of what publishing does are counted, not said.
    expect(lines(build.stderr, "warning")).toEqual([]);
    expect(build.stderr).toContain(
      "\n  and 1 warning (`velodata validate --all`, given the same --source and --state, lists every one)\n",
    );

    const validate = await runCli(["validate", "--source", source]);
    expect(validate.code).toBe(1);
    expect(lines(validate.stderr, "error")).toHaveLength(413);
    expect(lines(validate.stderr, "warning")).toHaveLength(1); // the fixtures' own
    expect(validate.stderr).not.toContain("more errors");
  });

  it("build prints the first warnings and counts the rest; validate prints every one", async () => {
    const source = await fixtureCopy();
    const path = join(source, "contracts.json");
    const contracts = await readJson(path);
    // 30 fields beside the list, each a warning of its own kind, beside the fixtures' own warning.
    for (let index = 0; index < 30; index++) contracts[`note${index}`] = index;
    await writeFile(path, JSON.stringify(contracts));

    const out = join(source, "..", "out");
    const build = await runCli(["build", "--source", source, "--out", out, "--base-url", BASE]);
    expect(build.code).toBe(0);
    // The first 20 of the source's problems (contracts.json's, read first: the fixtures' own is
    // among the 11 counted), then (after the summary) the fixtures' old states said once.
    const warnings = besidesFixtureWarning(lines(build.stderr, "warning"));
    expect(warnings).toHaveLength(21);
    expect(warnings.slice(0, 20).every((line) => line.includes("contracts.json note"))).toBe(true);
    expect(warnings.at(-1)).toBe(
      "warning: … and 11 more warnings (`velodata validate --all`, given the same --source and --state, lists every one)",
    );

    const validate = await runCli(["validate", "--source", source]);
    expect(validate.code).toBe(0);
    expect(besidesFixtureWarning(lines(validate.stderr, "warning"))).toHaveLength(30);
    expect(validate.stderr).not.toContain("more warnings");
  });
});

describe("velodata options", () => {
  it("reads numbers as people write them: an empty $VARIABLE, 0x10 or 1e3 is refused, not 0, 16 or 1000", async () => {
    const dir = await tempDir();
    for (const [args, option] of [
      [["synth", "--stations", "0x10", "--out", join(dir, "a")], "--stations <n>"],
      [["synth", "--stations", "1e3", "--out", join(dir, "b")], "--stations <n>"],
      [["synth", "--stations", "5", "--minutes", "", "--out", join(dir, "c")], "--minutes <n>"],
      [["serve", "--source", FIXTURES, "--max-missing", ""], "--max-missing <percent>"],
      [["serve", "--source", FIXTURES, "--refresh", " "], "--refresh <seconds>"],
    ] as const) {
      const refused = await runCli(args);
      expect([refused.code, refused.stderr.split("\n")[0]], args.join(" ")).toEqual([
        1,
        // Saying what it takes: 1e3 is a whole number above 0, but not in digits.
        expect.stringMatching(
          new RegExp(`^error: option '${option}' argument '.*' is invalid\\. .*, in digits`),
        ),
      ]);
    }
    // A network bigger than memory holds is refused at once, not after minutes of heap.
    const huge = await runCli(["synth", "--stations", "100000000", "--out", join(dir, "d")]);
    expect([huge.code, huge.stderr]).toEqual([
      1,
      "velodata: --stations 100000000 is more than the 5,000,000 a network is made of here\n",
    ]);
  });

  it("refuses an empty --host or path (an unset $VARIABLE): Node would listen on every interface", async () => {
    for (const args of [
      // No states file: had the host been taken, the server would not start all the same.
      ["serve", "--source", FIXTURES, "--state", "/nonexistent/states.json", "--host", ""],
      ["preview", "--host", " "],
    ]) {
      const refused = await runCli(args);
      expect([refused.code, refused.stderr], args[0]).toEqual([
        1,
        `error: option '--host <host>' argument '${args.at(-1)}' is invalid. must be an address, e.g. 127.0.0.1 (0.0.0.0 for every interface): an empty one listens on every interface\n` +
          "(add --help to see the options)\n",
      ]);
    }
    // A path: an empty one read as the current folder (nginx's key cache there), or as none at all
    // (serve keeping no tree, which nginx then served as it was last written).
    for (const [args, option] of [
      [
        ["serve", "--source", FIXTURES, "--state", "/nonexistent/states.json", "--out", ""],
        "-o, --out <dir>",
      ],
      [
        ["nginx", "--tree", "out", "--upstream", "http://127.0.0.1:1", "--cache-dir", ""],
        "--cache-dir <dir>",
      ],
      [["keys", "list", "--keys", ""], "-k, --keys <file>"],
    ] as const) {
      const refused = await runCli(args);
      expect([refused.code, refused.stderr], args[0]).toEqual([
        1,
        `error: option '${option}' argument '' is invalid. must not be empty: give a path (an unset $VARIABLE?)\n` +
          "(add --help to see the options)\n",
      ]);
    }
  });

  it("says what is wrong with an option in one line and where to look, not the whole usage", async () => {
    const port = await runCli(["serve", "--source", FIXTURES, "--port", "99999"]);
    expect([port.code, port.stderr]).toEqual([
      1,
      "error: option '-p, --port <n>' argument '99999' is invalid. must be a port number from 0 to 65535\n" +
        "(add --help to see the options)\n",
    ]);
    // Past Node's longest timer (2^31 - 1 ms) a refresh would fire at once, again and again.
    const refresh = await runCli(["serve", "--source", FIXTURES, "--refresh", "3000000"]);
    expect([refresh.code, refresh.stderr]).toEqual([
      1,
      "error: option '--refresh <seconds>' argument '3000000' is invalid. must be a whole number of seconds from 1 to 2147483 (about 24 days), in digits\n" +
        "(add --help to see the options)\n",
    ]);
    // The same bound for what says how long a live answer may be kept, as the refresh period it is.
    for (const [command, option] of [
      ["publish", "--max-age"],
      ["nginx", "--refresh"],
    ] as const) {
      const kept = await runCli([command, option, "99999999999"]);
      expect([kept.code, kept.stderr], command).toEqual([
        1,
        expect.stringContaining(
          "argument '99999999999' is invalid. must be a whole number of seconds from 1 to 2147483 (about 24 days), in digits\n",
        ),
      ]);
    }
    const missing = await runCli(["build"]);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      "error: required option '-s, --source <dir>' not specified\n(add --help to see the options)\n",
    ]);
    // A mistyped required option is that, not a missing one.
    const mistyped = await runCli(["build", "--sourc", FIXTURES]);
    expect([mistyped.code, mistyped.stderr]).toEqual([
      1,
      "error: unknown option '--sourc'\n(Did you mean --source?)\n(add --help to see the options)\n",
    ]);
  });

  it("marks every required option so in the help, and only those", async () => {
    const required = (help: string) =>
      help
        .split("\n")
        .filter((line) => line.includes("(required)"))
        .map((line) => line.trim().split(/\s{2,}/)[0]);
    expect(required((await runCli(["refresh", "--help"])).stdout)).toEqual([
      "-s, --source <dir>",
      "--state <file>",
    ]);
    expect(required((await runCli(["keys", "add", "--help"])).stdout)).toEqual([
      "-k, --keys <file>",
    ]);
    expect(required((await runCli(["preview", "--help"])).stdout)).toEqual([]);
  });
});

describe("velodata serve options", () => {
  it("refuses options that would be silently ignored or contradict each other", async () => {
    const keys = join(await tempDir(), "keys.json");
    const serve = ["serve", "--source", FIXTURES, "--keys", keys, "--port", "0"];
    const seed = await runCli([...serve, "--seed", "3"]);
    expect([seed.code, seed.stderr]).toEqual([
      1,
      "velodata: --seed seeds the simulator: it goes with --simulate\n",
    ]);
    const both = await runCli([...serve, "--simulate", "--state", join(FIXTURES, "states.json")]);
    expect([both.code, both.stderr]).toEqual([
      1,
      "velodata: --state and --simulate exclude each other: choose one\n",
    ]);
  });
});
