// A lock found gone, taken over while another process makes it: never two holders.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { lockOwner, takeOver } from "../../src/tree/lock-file.js";
import { tempDir } from "../helpers.js";
import { liveNodeProcess } from "./tree-helpers.js";

// Another process's move at the one moment it can come: just after this one, in its takeover,
// found the lock still gone (its read failed). It makes its lock as createLock does, outside the
// takeover's guard, and then holds it.
const meanwhile = vi.hoisted(() => ({ lock: "", make: () => {} }));
vi.mock("node:fs", async (original) => {
  const actual = await original<typeof import("node:fs")>();
  const readFileSync = ((...args: Parameters<typeof actual.readFileSync>) => {
    try {
      return actual.readFileSync(...args);
    } catch (cause) {
      if (args[0] === meanwhile.lock && actual.existsSync(`${meanwhile.lock}.takeover`))
        meanwhile.make();
      throw cause;
    }
  }) as typeof actual.readFileSync;
  return { ...actual, readFileSync, default: { ...actual, readFileSync } };
});

describe("a takeover of a lock found gone", () => {
  it("leaves the lock another process made meanwhile, and does not hold it too", async () => {
    const lock = join(await tempDir(), "lock");
    const other = liveNodeProcess();
    try {
      let made = false;
      meanwhile.lock = lock;
      meanwhile.make = () => {
        if (made) return;
        made = true;
        writeFileSync(lock, String(other.pid));
      };
      const held = takeOver(lock, { none: true });
      // One holder at most: the other, whose lock is still its own, or this process.
      if (made)
        expect([held, lockOwner(lock)]).toEqual([
          false,
          expect.objectContaining({ pid: other.pid }),
        ]);
      else
        expect([held, lockOwner(lock)]).toEqual([
          true,
          expect.objectContaining({ pid: process.pid }),
        ]);
      expect(existsSync(`${lock}.takeover`)).toBe(false);
    } finally {
      other.stop();
    }
  });
});
