// What the server keeps of each request target it is asked: short ones remembered, long ones (a
// flood of unique 16 KB targets) neither kept nor logged whole.
import { describe, expect, it } from "vitest";
import { askedTargets } from "../../src/serve/asked.js";

const KEY = "0123456789abcdef0123456789abcdef01234567";

describe("askedTargets", () => {
  it("remembers a short target: the same answer, not worked out again", () => {
    const askedOf = askedTargets();
    const target = `/vls/v3/stations/42?contract=dublin&apiKey=${KEY}`;
    expect(askedOf(target)).toBe(askedOf(target));
  });

  it("keeps no long target: each one worked out again, to the same answer", () => {
    const askedOf = askedTargets();
    const target = `/vls/v3/contracts?apiKey=${KEY}&q=${"z".repeat(2000)}`;
    const first = askedOf(target);
    const again = askedOf(target);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("logs a long target cut short, saying its length, its key still hidden", () => {
    const target = `/vls/v3/contracts?apiKey=${KEY}&q=${"z".repeat(10_000)}`;
    const { logged, loggedBytes, key } = askedTargets()(target);
    expect(key).toBe(KEY);
    expect(logged).toBe(
      `${`/vls/v3/contracts?apiKey=<redacted>&q=${"z".repeat(10_000)}`.slice(0, 2048)}…(a target of ${target.length} characters)`,
    );
    expect(Buffer.from(loggedBytes).toString()).toBe(logged);
    const short = "/vls/v3/contracts?q=abc";
    expect(askedTargets()(short).logged).toBe(short);
  });

  it("refuses a query of more than 64 parameters unread: no key read, its path logged", () => {
    const askedOf = askedTargets();
    const many = (count: number) => `/vls/v3/contracts?apiKey=${KEY}${"&%ff".repeat(count - 1)}`;
    const crowded = askedOf(many(65));
    expect(crowded).toMatchObject({
      kind: "bad request",
      message: "Bad request query: more than 64 parameters are not allowed",
      key: null,
      keyed: false,
      logged: "/vls/v3/contracts?(more than 64 parameters, not read)",
    });
    // 64 are read as any query: the key among them.
    expect(askedOf(many(64))).toMatchObject({ kind: "endpoint", key: KEY });
    // Counted by their separators, however empty.
    expect(askedOf(`/openapi.json?${"&".repeat(64)}`).kind).toBe("bad request");
    expect(askedOf(`/openapi.json?${"&".repeat(63)}`).kind).toBe("endpoint");
  });
});
