// /status whole for the server's operators, its health alone for any other client: the paths,
// errors, keys and memory never reach the internet by default.
import { writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ServerStatus } from "../../src/model/server-status.js";
import {
  DEFAULT_DETAILS_FROM,
  detailsFromEntries,
  detailsShownTo,
  statusDetailsOf,
} from "../../src/serve/status-details.js";
import { runCli } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

/** /status as a client at `address` asks it, handed on by a front server on this machine. */
async function statusFor(base: string, address?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = address ? { "X-Forwarded-For": address } : {};
  const response = await fetch(`${base}/status`, { headers });
  const status = (await response.json()) as Record<string, unknown>;
  expect(response.status).toBe(status.ok ? 200 : 503);
  // Both forms are the document the OpenAPI document describes.
  expect(z.strictObject(ServerStatus.shape).safeParse(status).error).toBeUndefined();
  // The whole one no page of another origin may read; the health alone, any page.
  const cors = ["access-control-allow-origin", "access-control-expose-headers"].map((name) =>
    response.headers.has(name),
  );
  expect(cors).toEqual("memory" in status ? [false, false] : [true, true]);
  return status;
}

const DETAILS = ["staticSource", "tree", "front", "memory"];

/**
 * A status without the seconds counted at the time of asking, which two requests in a row may
 * count a second apart.
 */
function withoutAges(status: Record<string, unknown>): Record<string, unknown> {
  const { dataAgeSeconds, refreshLateSeconds, feed, ...rest } = status;
  const { newestAgeSeconds, ...feedRest } = feed as Record<string, unknown>;
  return { ...rest, feed: feedRest };
}

/** An IPv4 address of this machine other than loopback, if it has one. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((face) => face?.family === "IPv4" && !face.internal)?.address;

/** /status asked from `address` to the server listening there, as a machine elsewhere would. */
function statusFrom(
  address: string,
  port: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const options = { host: address, localAddress: address, port, path: "/status", headers };
    httpRequest(options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    })
      .on("error", reject)
      .end();
  });
}

/** A request as statusDetailsOf reads it: its peer and headers. */
const requestFrom = (peer: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe("who sees /status whole (--status-details-from)", () => {
  it("takes addresses and networks, comma-separated and repeated, or any", () => {
    expect(detailsFromEntries("10.0.0.0/8, ::1")).toEqual(["10.0.0.0/8", "::1"]);
    expect(detailsFromEntries("fd00::/8", ["192.0.2.7"])).toEqual(["192.0.2.7", "fd00::/8"]);
    expect(detailsFromEntries("any")).toEqual(["any"]);
    for (const [value, said] of [
      ["10.0.0.0/33", '"10.0.0.0/33" is no address or network'],
      ["10.0.0.300", '"10.0.0.300" is no address or network'],
      ["::1/129", '"::1/129" is no address or network'],
      ["10.0.0.0/", '"10.0.0.0/" is no address or network'],
      ["localhost", '"localhost" is no address or network'],
      [" , ", "names no address or network"],
    ])
      expect(() => detailsFromEntries(value as string), value).toThrow(said as string);
  });

  it("shows the details to this machine by default, IPv4 as IPv6 writes it too", () => {
    const shown = detailsShownTo(DEFAULT_DETAILS_FROM);
    for (const address of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"])
      expect(shown(address), address).toBe(true);
    for (const address of ["10.0.0.1", "192.0.2.7", "::2", "::ffff:10.0.0.1", "", "nonsense"])
      expect(shown(address), address).toBe(false);
    const network = detailsShownTo(["10.0.0.0/8", "2001:db8::/32"]);
    expect([network("10.200.0.1"), network("2001:db8::5"), network("11.0.0.1")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(detailsShownTo(["any"])("203.0.113.9")).toBe(true);
  });

  it("answers a client elsewhere its health alone: the same ok, no path, error, key or memory", async () => {
    server = await startTestServer();
    // A refresh that fails on a states file in error: its error names the file.
    await writeFile(join(server.source, "states.json"), "{ not json");
    expect((await server.handle.refreshNow()).ok).toBe(false);
    const whole = await statusFor(server.base);
    expect(Object.keys(whole)).toEqual(expect.arrayContaining(DETAILS));
    expect(JSON.stringify(whole)).toContain(server.source);
    expect(whole.lastRefresh).toMatchObject({
      ok: false,
      error: expect.stringContaining("states.json"),
    });

    const health = await statusFor(server.base, "203.0.113.9");
    for (const field of DETAILS) expect(health, field).not.toHaveProperty(field);
    expect(health.lastRefresh).toEqual({ at: (whole.lastRefresh as { at: string }).at, ok: false });
    expect(health.keys).toEqual({ ok: true });
    expect(JSON.stringify(health)).not.toContain(server.source);
    // All the rest as the operators see it, in the same order (the ages as of its own second).
    const { staticSource, tree, front, memory, lastRefresh, keys, ...rest } = whole;
    const { lastRefresh: _, keys: __, ...healthRest } = health;
    expect(withoutAges(healthRest)).toEqual(withoutAges(rest));
    expect(Object.keys(health)).toEqual(Object.keys(whole).filter((key) => !DETAILS.includes(key)));
  });

  it("shows the details to the networks it is given, or to any client", async () => {
    server = await startTestServer({ statusDetailsFrom: ["203.0.113.0/24"] });
    expect(await statusFor(server.base, "203.0.113.9")).toHaveProperty("memory");
    expect(await statusFor(server.base, "198.51.100.1")).not.toHaveProperty("memory");
    // Given a network, this machine is no longer among them unless named.
    expect(await statusFor(server.base)).not.toHaveProperty("memory");
    await server.handle.stop();
    server = await startTestServer({ statusDetailsFrom: ["any"] });
    expect(await statusFor(server.base, "198.51.100.1")).toHaveProperty("memory");
  });

  it("shows a proxy elsewhere in a given network only the clients it names there", () => {
    const shown = statusDetailsOf(["10.0.0.0/8"]);
    // A monitoring check in the network, asking directly.
    expect(shown(requestFrom("10.0.0.5"))).toBe(true);
    // A load balancer in it, handing on a client from the internet, named as each proxy names it.
    const handedOn: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.9" },
      { "x-forwarded-for": "10.0.0.7, 203.0.113.9" },
      { "x-forwarded-for": "203.0.113.9, 10.0.0.7" },
      { "x-real-ip": "203.0.113.9" },
      { "x-forwarded-for": "203.0.113.9:4711" },
      { forwarded: "for=10.0.0.7" },
    ];
    for (const headers of handedOn)
      expect(shown(requestFrom("10.0.0.5", headers)), JSON.stringify(headers)).toBe(false);
    // The same balancer handing on a client of the network.
    expect(shown(requestFrom("10.0.0.5", { "x-forwarded-for": "10.0.0.7, 10.0.0.6" }))).toBe(true);
    expect(shown(requestFrom("10.0.0.5", { "x-real-ip": "10.0.0.7" }))).toBe(true);
    // nginx on this machine appends the client it serves to what the client wrote: the last is it.
    expect(shown(requestFrom("127.0.0.1", { "x-forwarded-for": "203.0.113.9, 10.0.0.7" }))).toBe(
      true,
    );
    expect(statusDetailsOf(["any"])(requestFrom("203.0.113.9", { forwarded: "for=x" }))).toBe(true);
  });

  it.skipIf(ownAddress === undefined)(
    "answers a client a proxy in a given network hands on its health alone",
    async () => {
      const address = ownAddress as string;
      server = await startTestServer({ host: address, statusDetailsFrom: [address] });
      const { port } = new URL(server.base);
      expect(await statusFrom(address, port)).toHaveProperty("memory");
      const handedOn = await statusFrom(address, port, { "X-Forwarded-For": "203.0.113.9" });
      expect(handedOn).not.toHaveProperty("memory");
      expect(handedOn).toHaveProperty("ok");
    },
  );

  it("refuses a value that names no network, saying which entry", async () => {
    const run = await runCli([
      "serve",
      "--source",
      "fixtures",
      "--keys",
      "keys.json",
      "--status-details-from",
      "10.0.0.0/8,10.1.0.0/40",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"10.1.0.0/40" is no address or network');
    expect(run.stderr).not.toContain("    at ");
  });
});
