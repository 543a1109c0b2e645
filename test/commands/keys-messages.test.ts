// What `velodata keys` says about a bad keys file or a bad label: one line each, no secret, no flood.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers.js";

const RAW_KEY = "ab00db14c1909fd439a4859ad0a600fc508e1c7b";
const stored = (sha256: unknown) => ({
  id: "abcdef01",
  label: "",
  sha256,
  created: "2025-01-01T00:00:00Z",
  revoked: null,
});

describe("velodata keys messages", () => {
  it("never quotes a sha256 field, and says when it holds what looks like a key itself", async () => {
    const file = join(await tempDir(), "keys.json");
    const other = { ...stored("ab00db14c19"), id: "abcdef02" };
    await writeFile(file, JSON.stringify({ keys: [stored(RAW_KEY), other] }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `velodata: keys file ${file} is not valid`,
        `  ${file} keys.0.sha256: holds what looks like a key itself (40 hex characters, not shown): the keys file keeps only a key's SHA-256, as 64 hex digits in sha256 (printf %s KEY | sha256sum)`,
        `  ${file} keys.1.sha256: must be the SHA-256 of a key, as 64 lower-case hex digits (the value is not shown: it may be secret)`,
        "",
      ].join("\n"),
    );
    // Written as if the file were a list of keys: no field is named sha256, the key is not shown.
    await writeFile(file, JSON.stringify({ keys: [RAW_KEY] }));
    const listed = await runCli(["keys", "list", "--keys", file]);
    expect(listed.stderr).toContain(`  ${file} keys.0: holds what looks like a key itself`);
    expect(listed.stderr).not.toContain(RAW_KEY);
  });

  it("never quotes a key pasted where an id is asked for, and names the id when it is a stored key's", async () => {
    const file = join(await tempDir(), "keys.json");
    const key = (await runCli(["keys", "add", "--keys", file])).stdout.trim();
    const id = JSON.parse(await readFile(file, "utf8")).keys[0].id;
    for (const args of [
      ["revoke", key],
      ["limit", key, "10"],
      ["revoke", key.toUpperCase()],
      ["revoke", RAW_KEY],
    ]) {
      const result = await runCli(["keys", ...args, "--keys", file]);
      expect(result.code, args[0]).toBe(1);
      expect(result.stderr.toLowerCase()).not.toContain(key.slice(0, 16));
      expect(result.stderr).not.toContain(RAW_KEY.slice(0, 16));
      expect(result.stderr).toContain("not shown");
    }
    const named = await runCli(["keys", "revoke", key, "--keys", file]);
    expect(named.stderr).toContain(`the key of id ${id}`);
    // Nothing was changed by the mistake.
    expect(JSON.parse(await readFile(file, "utf8")).keys[0].revoked).toBe(null);
  });

  it("never quotes a key pasted inside another field's value", async () => {
    const file = join(await tempDir(), "keys.json");
    const key = { ...stored("0".repeat(64)), created: `${RAW_KEY}Z`, revoked: `by ${RAW_KEY}` };
    await writeFile(file, JSON.stringify({ keys: [key] }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("keys.0.created: must be a UTC date and time");
    expect(result.stderr).toContain("keys.0.revoked: must be a UTC date and time");
    expect(result.stderr).not.toContain(RAW_KEY.slice(0, 16));
  });

  it("says what revoked takes when a key is revoked by hand with true, a date alone or nothing", async () => {
    const file = join(await tempDir(), "keys.json");
    const takes =
      "revoked takes when the key was revoked, a UTC date and time such as 2025-02-08T16:44:06Z, or null while it is in use (velodata keys revoke ID writes it)";
    for (const [revoked, said] of [
      [true, "keys.0.revoked: expected string, got true"],
      [
        "2025-03-01",
        'keys.0.revoked: must be a UTC date and time, e.g. 2025-02-08T16:44:06Z, got "2025-03-01"',
      ],
      [undefined, "keys.0.revoked: is required"],
    ] as const) {
      await writeFile(file, JSON.stringify({ keys: [{ ...stored("0".repeat(64)), revoked }] }));
      const result = await runCli(["keys", "list", "--keys", file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`  ${file} ${said}; ${takes}\n`);
    }
  });

  it("refuses two keys with one id: revoke and limit would change only the first, serve limit both", async () => {
    const file = join(await tempDir(), "keys.json");
    const second = { ...stored("1".repeat(64)), requestsPerMinute: 5 };
    await writeFile(file, JSON.stringify({ keys: [stored("0".repeat(64)), second] }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `velodata: keys file ${file} is not valid`,
        `  ${file} keys.1.id: abcdef01 is the id of keys.0 too: each key needs an id of its own`,
        "",
      ].join("\n"),
    );
  });

  it("says in one line where a keys file is not JSON (line and column), without quoting its text", async () => {
    const dir = await tempDir();
    const garbage = join(dir, "garbage.json");
    await writeFile(garbage, "garbage\n");
    expect((await runCli(["keys", "list", "--keys", garbage])).stderr).toBe(
      `velodata: keys file ${garbage} cannot be read: it is not valid JSON at line 1, column 1: unexpected "g": check that it is the keys file, then fix it or restore it from a backup\n`,
    );
    // V8 would quote the text around the error: here, the start of a key pasted unquoted.
    const pasted = join(dir, "pasted.json");
    await writeFile(pasted, `{"keys": [{"sha256": ${RAW_KEY}}]}`);
    const result = await runCli(["keys", "add", "--keys", pasted]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain(RAW_KEY.slice(0, 6));
    expect(result.stderr.split("\n")).toHaveLength(2);
    // A line edited by hand: where it breaks is said, the token V8 would quote with it is not.
    const edited = join(dir, "edited.json");
    await writeFile(edited, `{"keys": [\n  {"id": "0a1b2c3d", label: "${RAW_KEY}"}\n]}`);
    expect((await runCli(["keys", "list", "--keys", edited])).stderr).toBe(
      `velodata: keys file ${edited} cannot be read: it is not valid JSON at line 2, column 22: Expected double-quoted property name: check that it is the keys file, then fix it or restore it from a backup\n`,
    );
    const trailing = join(dir, "trailing.json");
    await writeFile(trailing, '{"keys": []}\nx');
    expect((await runCli(["keys", "list", "--keys", trailing])).stderr).toBe(
      `velodata: keys file ${trailing} cannot be read: it is not valid JSON at line 2, column 1: Unexpected non-whitespace character after JSON (text after the end of the JSON: two documents in one file?): check that it is the keys file, then fix it or restore it from a backup\n`,
    );
  });

  it("names each unknown field, unless it looks like a key, and says a file of another shape is no keys file", async () => {
    const dir = await tempDir();
    const file = join(dir, "keys.json");
    const entry = { ...stored("0".repeat(64)), expires: null };
    await writeFile(file, JSON.stringify({ keys: [entry], kyes: [], [RAW_KEY]: 1 }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").slice(1).sort()).toEqual(
      [
        "",
        `  ${file} keys.0.expires: unknown field (check its spelling)`,
        `  ${file} kyes: unknown field (check its spelling)`,
        `  ${file} <not shown: looks like a key>: unknown field (check its spelling)`,
      ].sort(),
    );
    // `keys` itself misspelt: said once, not also as missing.
    await writeFile(file, JSON.stringify({ kyes: [] }));
    expect((await runCli(["keys", "list", "--keys", file])).stderr).toBe(
      [
        `velodata: keys file ${file} is not valid`,
        `  ${file} kyes: unknown field: "keys" misspelt?`,
        "",
      ].join("\n"),
    );
    // A source's states file given as --keys: said to be another file, not a keys file to mend.
    const states = join(dir, "states.json");
    await writeFile(states, JSON.stringify({ states: [] }));
    expect((await runCli(["keys", "list", "--keys", states])).stderr).toBe(
      [
        `velodata: keys file ${states} is not valid`,
        `  ${states}: is no keys file: it must hold {"keys": […]}, as velodata keys add writes it (it holds states: another file?)`,
        "",
      ].join("\n"),
    );
    // Another source file given by mistake: a list, not `{"keys": […]}`.
    const stations = join(dir, "stations.json");
    await writeFile(stations, JSON.stringify([{ contract: "lyon", number: 1 }]));
    expect((await runCli(["keys", "list", "--keys", stations])).stderr).toBe(
      [
        `velodata: keys file ${stations} is not valid`,
        `  ${stations}: is no keys file: it must hold {"keys": […]}, as velodata keys add writes it`,
        "",
      ].join("\n"),
    );
  });

  it("says a keys file that is a folder is one", async () => {
    const dir = await tempDir();
    const result = await runCli(["keys", "list", "--keys", dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `velodata: the keys file ${dir} is a folder where a file is expected: give the path of a file\n`,
    );
  });

  it("refuses a label with control characters, quoting it escaped, and stores nothing", async () => {
    const file = join(await tempDir(), "keys.json");
    const result = await runCli(["keys", "add", "--keys", file, "--label", "a\nb\tc\x1b[31m"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      'velodata: a key\'s label must not hold control characters (tab, newline, escape…), got "a\\x0ab\\x09c\\x1b[31m": give plain text\n',
    );
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it("refuses a label of more than 200 characters, quoting 40 of them", async () => {
    const file = join(await tempDir(), "keys.json");
    expect((await runCli(["keys", "add", "--keys", file, "--label", "x".repeat(200)])).code).toBe(
      0,
    );
    const result = await runCli(["keys", "add", "--keys", file, "--label", "y".repeat(100_000)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `velodata: a key's label must have at most 200 characters, got "${"y".repeat(40)}… (100000 characters)": give a shorter one\n`,
    );
  });

  it("lists a label edited by hand with control characters as one escaped row", async () => {
    const file = join(await tempDir(), "keys.json");
    const key = { ...stored("0".repeat(64)), label: "a\tb\nc\x1b[2J" };
    await writeFile(file, JSON.stringify({ keys: [key] }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.stdout.split("\n")[1]).toBe(
      "abcdef01\t2025-01-01T00:00:00Z\t-\t-\ta\\x09b\\x0ac\\x1b[2J",
    );
  });
});
