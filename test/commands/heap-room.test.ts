// The serve command's warning when the data leaves the heap little room (see heap-room.ts).
import type { HeapInfo } from "node:v8";
import { describe, expect, it } from "vitest";
import { heapRoomWarning } from "../../src/commands/heap-room.js";

const GB = 2 ** 30;
const heap = (used: number, limit: number) =>
  ({ used_heap_size: used, heap_size_limit: limit }) as HeapInfo;

describe("heapRoomWarning", () => {
  it("says nothing while the data takes at most half the limit", () => {
    expect(heapRoomWarning(heap(2 * GB, 4 * GB))).toBeNull();
    expect(heapRoomWarning(heap(0.1 * GB, 4 * GB))).toBeNull();
  });

  it("past half, says how full and suggests three times the use, in whole GB", () => {
    expect(heapRoomWarning(heap(3.5 * GB, 4 * GB))).toBe(
      "warning: the data fills 3.5 GB of Node's 4.0 GB heap limit: refreshes slow down near it and the server stops past it. Start it with NODE_OPTIONS=--max-old-space-size=11264",
    );
  });
});
