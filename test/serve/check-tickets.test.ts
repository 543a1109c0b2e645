import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { checkTickets } from "../../src/serve/check-tickets.js";
import { forgetOldest } from "../../src/serve/forget-oldest.js";

const named = (ticket?: string) =>
  ({ headers: ticket === undefined ? {} : { "x-velodata-request": ticket } }) as IncomingMessage;

describe("checkTickets", () => {
  it("gives what a check counted to the hand-over naming its request, once", () => {
    const tickets = checkTickets<string>();
    tickets.keep(named("a"), "0de43ae5");
    expect(tickets.take(named("b"), () => true)).toBeUndefined();
    expect(tickets.take(named("a"), (id) => id === "0de43ae5")).toBe("0de43ae5");
    expect(tickets.take(named("a"), () => true)).toBeUndefined();
  });

  it("keeps it for a hand-over asking something else, and nothing for a request the front did not name", () => {
    const tickets = checkTickets<string>();
    tickets.keep(named("a"), "0de43ae5");
    expect(tickets.take(named("a"), (id) => id === "7c1e0b2a")).toBeUndefined();
    expect(tickets.take(named("a"), (id) => id === "0de43ae5")).toBe("0de43ae5");
    tickets.keep(named(), "0de43ae5");
    expect(tickets.take(named(), () => true)).toBeUndefined();
  });
});

describe("forgetOldest", () => {
  it("forgets the first entry in, once past the bound", () => {
    const map = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    forgetOldest(map, 2);
    expect([...map.keys()]).toEqual(["a", "b"]);
    map.set("c", 3);
    forgetOldest(map, 2);
    expect([...map.keys()]).toEqual(["b", "c"]);
  });
});
