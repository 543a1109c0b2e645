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

  it("places views that alternate between buffers and between copies each in their own", () => {
    // Consecutive views are looked up once per run of the same buffer or copy: a run broken by
    // another must not carry its place over.
    const first = Buffer.from(new SharedArrayBuffer(8));
    first.write("abcdefgh");
    const second = Buffer.from(new SharedArrayBuffer(8));
    second.write("ABCDEFGH");
    const comma = Buffer.from(",");
    const colon = Buffer.from(":");
    const given = [
      first.subarray(0, 2),
      first.subarray(2, 4),
      second.subarray(0, 3),
      comma,
      comma,
      colon,
      first.subarray(4, 8),
      comma,
      second.subarray(5, 8),
      colon,
    ];
    const { memory, places, copied } = placesOf(given, true);
    given.forEach((view, index) => {
      const buffer = memory[places[3 * index] as number] as ArrayBuffer;
      const start = places[3 * index + 1] as number;
      const found = new Uint8Array(buffer, start, (places[3 * index + 2] as number) - start);
      expect(Buffer.from(found).toString(), `view ${index}`).toBe(Buffer.from(view).toString());
    });
    expect(copied).toBe(2);
    expect(memory).toEqual([memory[0], first.buffer, second.buffer]);
  });
});
