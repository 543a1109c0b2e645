// System errors of a tree write, said as what happened and what to do.
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { TREE_UNCHANGED, treeWriteError } from "../../src/tree/tree-error.js";

describe("treeWriteError", () => {
  it("says a busy --out is most likely a mount point, and what to give instead", () => {
    // As rename(2) fails on a mount point (a Docker volume given as --out).
    const busy = Object.assign(new Error("EBUSY: resource busy or locked, rename"), {
      code: "EBUSY",
      syscall: "rename",
      path: "/out",
    });
    const error = treeWriteError(busy, "/out", TREE_UNCHANGED) as UserError;
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(
      "cannot write the tree at /out: --out is busy, a mount point most likely, which cannot be moved to put the tree's link there (rename /out); the tree served there is unchanged",
    );
    expect(error.details).toEqual([
      "give a path inside it, e.g. /out/tree, then run the command again",
    ]);
  });
});
