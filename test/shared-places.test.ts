// Views handed to another thread as places: each view's bytes found again at its place, shared
// memory by reference, anything else copied once.
import { describe, expect, it } from "vitest";
import { placesOf } from "../src/shared-places.js";

function views(): Uint8Array[] {
  const shared = Buffer.from(new SharedArrayBuffer(64));
  shared.write("Place de l'Hôtel de Ville");
  const comma = Buffer.from(",");
  return [
    Buffer.from("["),
    shared.subarray(0, 5),
    comma,
    shared.subarray(6, 8),
    comma,
    Buffer.alloc(0),
  ];
}

describe("placesOf", () => {
  for (const shared of [true, false])
    it(`finds every view at its place, the copies in ${shared ? "shared" : "movable"} memory`, () => {
      const given = views();
      const { memory, places, copied } = placesOf(given, shared);
      given.forEach((view, index) => {
        const buffer = memory[places[3 * index] as number] as ArrayBuffer;
        const start = places[3 * index + 1] as number;
        const found = new Uint8Array(buffer, start, (places[3 * index + 2] as number) - start);
        expect(Buffer.from(found).equals(view), `view ${index}`).toBe(true);
      });
      // "[" and "," once each; the shared views are not copied, their buffer is passed as it is.
      expect(copied).toBe(2);
      expect(memory[0]).toBeInstanceOf(shared ? SharedArrayBuffer : ArrayBuffer);
      expect(memory).toHaveLength(2);
      expect(memory[1]).toBe(given[1]?.buffer);
      expect(places.buffer).toBeInstanceOf(shared ? SharedArrayBuffer : ArrayBuffer);
    });
});
