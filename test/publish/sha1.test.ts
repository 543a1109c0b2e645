// The answers' SHA-1: the digest of the joined bytes, however they come in chunks.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { oneShotSha1, oneShotSha1Latin1, sha1Of } from "../../src/publish/sha1.js";

const expected = (body: readonly Uint8Array[]) => createHash("sha1").update(Buffer.concat(body));

describe("sha1Of", () => {
  it("is the SHA-1 of the joined chunks: small ones batched, big ones and one-byte commas", () => {
    // Entries and one-byte commas as a station_status feed has them; some past the batch.
    const bodies: Uint8Array[][] = Array.from({ length: 12 }, (_, n) =>
      Array.from({ length: 40 * (n + 1) }, (_, at) =>
        at % 2 ? Buffer.from(",") : Buffer.alloc(300 + 200 * n, (at + n) % 251),
      ),
    );
    bodies.push([Buffer.alloc(3 << 20, 7)], [], [Buffer.from("x")]);
    for (const body of bodies) expect(sha1Of(body)).toBe(expected(body).digest("base64url"));
  });

  it("is the one-shot digest for one chunk, in base64url or as latin1 bytes", () => {
    const bytes = Buffer.from('{"number":1}');
    expect(oneShotSha1(bytes)).toBe(expected([bytes]).digest("base64url"));
    expect(Buffer.from(oneShotSha1Latin1(bytes), "latin1")).toEqual(expected([bytes]).digest());
  });
});
