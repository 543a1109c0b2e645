// The bundle's data package names who publishes it, so that a zip found on a disk or in a data
// catalogue leads back to its service: portal.json's name in its title, and its portal's page as
// its homepage once the public address is known; never the stand-in a build names without one.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

async function dataPackageOf(out: string) {
  const zip = await readFile(join(out, "download/velodata-static.zip"));
  const entry = unzipSync(zip)["datapackage.json"] as Uint8Array;
  return JSON.parse(Buffer.from(entry).toString("utf8"));
}

describe("the static bundle's data package names its publisher", () => {
  it("titles it with portal.json's service name and links the portal at the public base URL", async () => {
    const source = await fixtureCopy();
    await writeFile(join(source, "portal.json"), JSON.stringify({ serviceName: "Vélos de Ville" }));
    const out = join(await tempDir(), "out");
    const built = await runCli([
      "build",
      ...["--source", source, "--out", out, "--base-url", "https://bikes.example.org/api/"],
    ]);
    expect(built.code, built.stderr).toBe(0);
    const described = await dataPackageOf(out);
    expect(described.title).toBe(
      "Vélos de Ville: bike-sharing stations and bike parkings, static data",
    );
    expect(described.homepage).toBe("https://bikes.example.org/api/");
    expect(described.description).toContain(
      "Live availability is served by the API (https://bikes.example.org/api/).",
    );
    expect(described.keywords).toContain("bike sharing");

    // Moved to another address: the cron refresh that says it packages the bundle again.
    const states = join(source, "states.json");
    const moved = await runCli([
      "refresh",
      ...[
        "--source",
        source,
        "--state",
        states,
        "--out",
        out,
        "--base-url",
        "https://velo.example.net",
      ],
    ]);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await dataPackageOf(out)).homepage).toBe("https://velo.example.net/");
  });

  it("names no homepage when no public base URL was given, and the portal's default name without portal.json", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.code, built.stderr).toBe(0);
    const described = await dataPackageOf(out);
    expect(described.homepage).toBeUndefined();
    // As the portal page and the OpenAPI document title themselves.
    expect(described.title).toBe("velodata: bike-sharing stations and bike parkings, static data");
    expect(described.description).toContain("Live availability is served by the API.");
    expect(JSON.stringify(described)).not.toContain("127.0.0.1");
  });
});
