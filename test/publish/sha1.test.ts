// The answers' SHA-1, made on the calling thread or in the thread pool: the same digest.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha1InPool, sha1Of } from "../../src/publish/sha1.js";

const expected = (body: readonly Uint8Array[]) =>
  createHash("sha1").update(Buffer.concat(body)).digest("base64url");

describe("sha1InPool", () => {
  it("is sha1Of's digest, calls overlapping (each call's bytes are its own)", async () => {
    // Entries and one-byte commas as a station_status feed has them; one bigger than the scratch.
    const bodies: Uint8Array[][] = Array.from({ length: 12 }, (_, n) =>
      Array.from({ length: 40 * (n + 1) }, (_, at) =>
        at % 2 ? Buffer.from(",") : Buffer.alloc(300 + n, (at + n) % 251),
      ),
    );
    bodies.push([Buffer.alloc(3 << 20, 7)], [], [Buffer.from("x")]);
    const tags = await Promise.all(bodies.map((body) => sha1InPool(body)));
    bodies.forEach((body, n) => {
      expect(tags[n]).toBe(expected(body));
      expect(tags[n]).toBe(sha1Of(body));
    });
  });
});
