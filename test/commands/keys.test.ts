import { chown, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/serve/keys/key-file.js";
import { BIN, runCli, runShell, tempDir } from "../helpers.js";

describe("velodata keys", () => {
  it("adds a 40-hex key printed once, stores only its hash with mode 0600, lists and revokes it", async () => {
    const file = join(await tempDir(), "keys.json");
    const added = await runCli(["keys", "add", "--keys", file, "--label", "city app"]);
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(added.stderr).toContain("shown only this once");

    const stored = await readFile(file, "utf8");
    expect(stored).not.toContain(key);
    expect(stored).toContain(hashKey(key));
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const listed = await runCli(["keys", "list", "--keys", file]);
    const [, row] = listed.stdout.trim().split("\n");
    const [id, , revoked, perMinute, label] = (row as string).split("\t");
    expect([revoked, perMinute, label]).toEqual(["-", "-", "city app"]);
    expect(listed.stdout).not.toContain(key);

    const first = await runCli(["keys", "revoke", id as string, "--keys", file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^key ${id} revoked at \\S+Z\\n$`));
    const again = await runCli(["keys", "revoke", id as string, "--keys", file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^key ${id} was already revoked, at \\S+Z: nothing changed\\n$`),
    );
    const after = (await runCli(["keys", "list", "--keys", file])).stdout;
    // The same row, now with a revocation date: an empty listing must fail here.
    expect(after).toMatch(
      new RegExp(`^${id}\t\\S+\t\\d{4}-\\d\\d-\\d\\dT\\S+Z\t-\tcity app$`, "m"),
    );
  });

  it("sets, changes and removes a key's limit of requests a minute, shown by list", async () => {
    const file = join(await tempDir(), "keys.json");
    const added = await runCli(["keys", "add", "--keys", file, "--per-minute", "600"]);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain("at most 600 requests a minute");
    const id = await firstId(file);
    const perMinute = async () =>
      (await runCli(["keys", "list", "--keys", file])).stdout.trim().split("\n")[1]?.split("\t")[3];
    expect(await perMinute()).toBe("600");

    const changed = await runCli(["keys", "limit", id, "120", "--keys", file]);
    expect(changed.stdout).toBe(`key ${id}, at most 120 requests a minute\n`);
    expect(await perMinute()).toBe("120");
    const removed = await runCli(["keys", "limit", id, "NONE", "--keys", file]);
    expect(removed.stdout).toBe(`key ${id}: no limit\n`);
    expect(await perMinute()).toBe("-");
    expect(await readFile(file, "utf8")).not.toContain("requestsPerMinute");

    for (const [args, message] of [
      [["limit", id, "0"], "<per-minute> must be a whole number above 0"],
      [["limit", id, "lots"], "or none to remove the limit"],
      [["limit", id, "60001"], "must be at most 60000"],
      [["add", "--per-minute", "-1"], "must be a whole number above 0"],
      [["limit", "ffffffff", "10"], "no key with id ffffffff"],
    ] as const) {
      const refused = await runCli(["keys", ...args, "--keys", file]);
      expect(refused.code, args.join(" ")).not.toBe(0);
      expect(refused.stderr, args.join(" ")).toContain(message);
      expect(refused.stderr).not.toContain("    at ");
    }
    expect(await perMinute()).toBe("-");

    // A revoked key's limit would change nothing: refused, the file left as it was.
    expect((await runCli(["keys", "revoke", id, "--keys", file])).code).toBe(0);
    const before = await readFile(file, "utf8");
    const revoked = await runCli(["keys", "limit", id, "10", "--keys", file]);
    expect([revoked.code, revoked.stderr]).toEqual([
      1,
      expect.stringMatching(
        new RegExp(`^velodata: key ${id} was revoked at .*; nothing was changed\n`),
      ),
    ]);
    expect(await readFile(file, "utf8")).toBe(before);
  });

  // As docs/deploying.md's Debian steps leave it: the service's user owns the file, root adds a key.
  it.skipIf(process.getuid?.() !== 0)(
    "keeps the owner of the keys file it replaces, so the server can still read it",
    async () => {
      const file = join(await tempDir(), "keys.json");
      expect((await runCli(["keys", "add", "--keys", file])).code).toBe(0);
      const service = 65534; // nobody
      await chown(file, service, service);
      for (const args of [["add"], ["revoke", await firstId(file)]]) {
        expect((await runCli(["keys", ...args, "--keys", file])).code).toBe(0);
        const after = await stat(file);
        expect([after.uid, after.gid, after.mode & 0o777], args[0]).toEqual([
          service,
          service,
          0o600,
        ]);
      }
    },
  );

  it("loses no change when 8 adds and a revoke run at once", async () => {
    const file = join(await tempDir(), "keys.json");
    const first = await runCli(["keys", "add", "--keys", file, "--label", "first"]);
    const [, row] = (await runCli(["keys", "list", "--keys", file])).stdout.trim().split("\n");
    const firstId = (row as string).split("\t")[0] as string;
    const runs = await Promise.all([
      ...Array.from({ length: 8 }, (_, n) =>
        runCli(["keys", "add", "--keys", file, "--label", `app ${n}`]),
      ),
      runCli(["keys", "revoke", firstId, "--keys", file]),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const stored = JSON.parse(await readFile(file, "utf8")).keys as {
      id: string;
      sha256: string;
      revoked: string | null;
    }[];
    expect(stored).toHaveLength(9);
    for (const run of runs.slice(0, 8))
      expect(stored.map((key) => key.sha256)).toContain(hashKey(run.stdout.trim()));
    expect(stored.find((key) => key.id === firstId)?.revoked).toMatch(/Z$/);
    expect(first.code).toBe(0);
    expect(await readdir(join(file, ".."))).toEqual(["keys.json"]);
  });

  it("refuses to list or revoke in a keys file that does not exist", async () => {
    const file = join(await tempDir(), "keys.json");
    const listed = await runCli(["keys", "list", "--keys", file]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toBe(
      `velodata: no keys file at ${file}: check the path, or create it with velodata keys add\n`,
    );
    const revoked = await runCli(["keys", "revoke", "deadbeef", "--keys", file]);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain(`no keys file at ${file}`);
  });

  it("says the folder is missing instead of failing on its temporary file", async () => {
    const file = join(await tempDir(), "missing", "keys.json");
    const result = await runCli(["keys", "add", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `velodata: the folder of the keys file ${file} does not exist: create ${join(file, "..")} first\n`,
    );
  });

  it("prints no stack trace when its reader goes away (keys list | head -0)", async () => {
    const file = join(await tempDir(), "keys.json");
    for (let n = 0; n < 3; n++) await runCli(["keys", "add", "--keys", file]);
    const result = await runShell(
      `"${process.execPath}" "${BIN}" keys list --keys "${file}" | head -c 0`,
    );
    expect(result.stderr).toBe("");
  });

  it("says which id is unknown when revoking", async () => {
    const file = join(await tempDir(), "keys.json");
    await runCli(["keys", "add", "--keys", file]);
    const result = await runCli(["keys", "revoke", "deadbeef", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no key with id deadbeef in ${file}`);
  });

  it("says what is wrong with a keys file edited by hand, field by field, in plain words", async () => {
    const file = join(await tempDir(), "keys.json");
    const key = { id: "xyz", sha256: "0".repeat(64), created: "2025", revoked: null };
    await writeFile(file, JSON.stringify({ keys: [key] }));
    const result = await runCli(["keys", "list", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `velodata: keys file ${file} is not valid`,
        `  ${file} keys.0.id: must be 8 hex digits in lower case, as velodata keys add makes an id (e.g. 0a1b2c3d), got "xyz"`,
        `  ${file} keys.0.label: is required`,
        `  ${file} keys.0.created: must be a UTC date and time, e.g. 2025-02-08T16:44:06Z, got "2025"`,
        "",
      ].join("\n"),
    );
  });
});

/** The id of the keys file's first key, as `velodata keys list` shows it. */
async function firstId(file: string): Promise<string> {
  const [, row] = (await runCli(["keys", "list", "--keys", file])).stdout.trim().split("\n");
  return (row as string).split("\t")[0] as string;
}
