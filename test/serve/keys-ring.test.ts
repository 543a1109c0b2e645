// The key ring's reports on a keys file that turns bad while the server runs.
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Severity } from "../../src/log.js";
import { addKey, revokeKey } from "../../src/serve/keys/key-file.js";
import { watchKeyRing } from "../../src/serve/keys/key-ring.js";
import { tempDir } from "../helpers.js";

const RAW_KEY = "ab00db14c1909fd439a4859ad0a600fc508e1c7b";

describe("watchKeyRing", () => {
  it("logs a raw key pasted into sha256 as such, never the key, and keeps the good keys", async () => {
    const file = join(await tempDir(), "keys.json");
    const { key } = await addKey(file, "", new Date());
    const { lines, firstLine, log } = logKept();
    const ring = await watchKeyRing({ path: file, pollMs: 20, log });
    try {
      const [stored] = JSON.parse(await readFile(file, "utf8")).keys;
      await writeFile(file, JSON.stringify({ keys: [{ ...stored, sha256: RAW_KEY }] }));
      await firstLine; // the reload's report of the bad file
      // An error: the server goes on with keys the operator meant to change.
      expect(lines).toEqual([
        [
          "error",
          `keys: keys file ${file} is not valid; ${file} keys.0.sha256: holds what looks like a key itself (40 hex characters, not shown): the keys file keeps only a key's SHA-256, as 64 hex digits in sha256 (printf %s KEY | sha256sum); keeping the last good set of keys`,
        ],
      ]);
      expect(ring.idOf(key)).toBe(stored.id);
      expect(ring.idOf(RAW_KEY)).toBeNull();
    } finally {
      ring.close();
    }
  });

  it("says why a keys file it can no longer read fails (a link that loops), not that it disappeared", async () => {
    const file = join(await tempDir(), "keys.json");
    const { key, stored } = await addKey(file, "", new Date());
    const { lines, firstLine, log } = logKept();
    const ring = await watchKeyRing({ path: file, pollMs: 20, log });
    try {
      await rm(file);
      await symlink(file, file); // ln -sf done wrong: the file a link to itself
      await firstLine;
      expect(lines).toEqual([
        ["error", expect.stringContaining("is a symbolic link that leads back to itself")],
      ]);
      expect(lines[0]?.[1]).not.toContain("disappeared");
      expect(ring.failingSince()).not.toBeNull();
      expect(ring.idOf(key)).toBe(stored.id);
    } finally {
      ring.close();
    }
  });

  it("names a revoked key by its id, apart from the accepted ones", async () => {
    const file = join(await tempDir(), "keys.json");
    const kept = await addKey(file, "", new Date());
    const gone = await addKey(file, "", new Date());
    await revokeKey(file, gone.stored.id, new Date());
    const ring = await watchKeyRing({ path: file, log: () => {} });
    try {
      expect([ring.idOf(kept.key), ring.revokedIdOf(kept.key)]).toEqual([kept.stored.id, null]);
      expect([ring.idOf(gone.key), ring.revokedIdOf(gone.key)]).toEqual([null, gone.stored.id]);
      expect([ring.idOf(RAW_KEY), ring.revokedIdOf(RAW_KEY)]).toEqual([null, null]);
    } finally {
      ring.close();
    }
  });

  it("tells each of many keys by its own id, the demo key's too, and counts the accepted ones", async () => {
    const file = join(await tempDir(), "keys.json");
    const revoked = await addKey(file, "", new Date());
    const added = [revoked];
    for (let n = 0; n < 4; n++) added.push(await addKey(file, "", new Date()));
    await revokeKey(file, revoked.stored.id, new Date());
    const extraKeys = [{ key: RAW_KEY, id: "demo" }];
    const ring = await watchKeyRing({ path: file, extraKeys, log: () => {} });
    try {
      expect(added.map(({ key }) => ring.idOf(key))).toEqual([
        null,
        ...added.slice(1).map(({ stored }) => stored.id),
      ]);
      expect(ring.revokedIdOf(revoked.key)).toBe(revoked.stored.id);
      expect(ring.idOf(RAW_KEY)).toBe("demo");
      expect(ring.activeCount()).toBe(5);
    } finally {
      ring.close();
    }
  });
});

/** A log that keeps each line with its severity, and a promise of its first line. */
function logKept() {
  const lines: [Severity | undefined, string][] = [];
  let logged = () => {};
  const firstLine = new Promise<void>((resolve) => (logged = resolve));
  const log = (line: string, severity?: Severity) => {
    lines.push([severity, line]);
    logged();
  };
  return { lines, firstLine, log };
}
