import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../src/serve/client-address.js";

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
  }) as unknown as IncomingMessage;

describe("clientAddress", () => {
  it("takes the last address a front server on this machine names", () => {
    expect(clientAddress(request("127.0.0.1", "198.51.100.4, 203.0.113.7"))).toBe("203.0.113.7");
    expect(clientAddress(request("::1", "2001:db8::5"))).toBe("2001:db8::5");
    expect(clientAddress(request("::ffff:127.0.0.1", " 203.0.113.8 "))).toBe("203.0.113.8");
  });

  it("keeps the peer when it is elsewhere (anyone can send the header) or names none", () => {
    expect(clientAddress(request("192.0.2.10", "203.0.113.7"))).toBe("192.0.2.10");
    expect(clientAddress(request("127.0.0.1"))).toBe("127.0.0.1");
    expect(clientAddress(request("127.0.0.1", ""))).toBe("127.0.0.1");
  });
});
