// A station_status feed patched from last minute's bytes is the feed made whole from its entries.
import { describe, expect, it } from "vitest";
import { patchedStatus, statusChunks, wholeStatus } from "../../src/publish/status-bytes.js";

const HEAD = '{"last_updated":1,"data":{"stations":[';
const TAIL = "]}}";
const entry = (station: number, round: number): string =>
  `{"station_id":"${station}","num_docks_available":${round * 7 + (station % 5) * 100},"name":"Gare ${"é".repeat(station % 3)}"}`;

describe("patchedStatus", () => {
  it("gives the bytes and places of the feed made whole, whichever entries changed", () => {
    const count = 9;
    const cases = [
      [],
      [0],
      [count - 1],
      [0, 1, 2],
      [3, 5],
      [2, 3, 4, 7, 8],
      [...Array(count).keys()],
    ];
    for (const fresh of cases) {
      let texts = Array.from({ length: count }, (_, station) => entry(station, 0));
      let status = wholeStatus(HEAD, TAIL, texts);
      // Twice: the second patch starts from the places the first one set.
      for (const round of [1, 2]) {
        texts = texts.map((text, station) =>
          fresh.includes(station) ? entry(station, round) : text,
        );
        const patched = patchedStatus(
          status,
          `${HEAD.slice(0, -1)} [`,
          TAIL,
          fresh,
          fresh.map((station) => entry(station, round)),
        );
        const whole = wholeStatus(`${HEAD.slice(0, -1)} [`, TAIL, texts);
        expect(patched?.bytes.toString(), `${fresh} round ${round}`).toBe(whole.bytes.toString());
        expect(patched?.starts, `${fresh}`).toEqual(whole.starts);
        expect(patched?.ends, `${fresh}`).toEqual(whole.ends);
        status = patched ?? status;
      }
    }
  });

  it("refuses positions it cannot place", () => {
    const status = wholeStatus(HEAD, TAIL, [entry(1, 0), entry(2, 0)]);
    expect(patchedStatus(status, HEAD, TAIL, [2], [entry(3, 1)])).toBeUndefined();
    expect(patchedStatus(status, HEAD, TAIL, [1, 0], [entry(2, 1), entry(1, 1)])).toBeUndefined();
    expect(patchedStatus(status, HEAD, TAIL, [0], [])).toBeUndefined();
  });
});

describe("statusChunks", () => {
  it("cuts the feed into head, entries, commas and tail, the entries views of its bytes", () => {
    const texts = [entry(1, 0), entry(2, 0), entry(3, 0)];
    const status = wholeStatus(HEAD, TAIL, texts);
    const { chunks, entries } = statusChunks(status);
    expect(Buffer.concat(chunks).toString()).toBe(`${HEAD}${texts.join(",")}${TAIL}`);
    expect(entries.map(String)).toEqual(texts);
    expect(chunks[1 + 2 * 2]).toBe(entries[2]);
    expect(entries[0]?.buffer).toBe(status.bytes.buffer);
    expect(Buffer.concat(statusChunks(wholeStatus(HEAD, TAIL, [])).chunks).toString()).toBe(
      `${HEAD}${TAIL}`,
    );
  });
});
