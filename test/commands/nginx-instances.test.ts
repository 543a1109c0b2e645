// Two configurations of `velodata nginx` in one real nginx (staging and production, two cities):
// each names its own http-level maps, log format, upstream and key cache, and serves its own tree.
import { spawn, spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findNginx, freePort, stopChild, untilListening } from "../deployments/deployments.js";
import { runCli, tempDir } from "../helpers.js";

const nginx = findNginx();

describe.skipIf("missing" in nginx)("two velodata nginx configurations in one nginx", () => {
  const cities = ["lyon", "dublin"] as const;
  let prefix: string;
  const ports: Record<string, number> = {};
  let child: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    prefix = await tempDir("velodata instances-");
    await mkdir(join(prefix, "logs"));
    const includes: string[] = [];
    for (const city of cities) {
      const out = join(prefix, city, "out");
      const base = `https://${city}.example.org`;
      const built = await runCli([
        "build",
        "--source",
        "fixtures",
        "--out",
        out,
        "--base-url",
        base,
      ]);
      expect(built.code, built.stderr).toBe(0);
      ports[city] = await freePort();
      const made = await runCli([
        ...["nginx", "--name", city, "--tree", out, "--upstream", "http://127.0.0.1:9"],
        ...["--listen", `127.0.0.1:${ports[city]}`, "--no-brotli"],
        ...["--cache-dir", join(prefix, `${city}-keys`)],
        ...["--access-log", join(prefix, `${city}-access.log`)],
      ]);
      expect(made.code, made.stderr).toBe(0);
      await writeFile(join(prefix, `${city}.conf`), made.stdout);
      includes.push(`  include "${join(prefix, `${city}.conf`)}";`);
    }
    await writeFile(
      join(prefix, "nginx.conf"),
      [
        process.getuid?.() === 0 ? "user root;" : "",
        `error_log "${join(prefix, "error.log")}" warn;`,
        "events {}",
        "http {",
        ...includes,
        "}",
      ].join("\n"),
    );
  }, 60_000);
  afterAll(async () => {
    if (child) await stopChild(child);
  });

  const args = () => ["-p", prefix, "-c", join(prefix, "nginx.conf")];

  it("passes nginx -t together", () => {
    const tested = spawnSync("path" in nginx ? nginx.path : "", ["-t", ...args()], {
      encoding: "utf8",
    });
    expect(tested.stderr).toContain("test is successful");
    expect(tested.status).toBe(0);
  });

  it("serves each its own tree on its own port", async () => {
    child = spawn(
      "path" in nginx ? nginx.path : "",
      [...args(), "-g", `daemon off; pid "${prefix}/nginx.pid";`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    for (const city of cities) {
      const port = ports[city] as number;
      await untilListening(child, port, () => stderr, false);
      const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(response.status).toBe(200);
      const servers = (await response.json()).servers.map((server: { url: string }) => server.url);
      expect(servers).toContain(`https://${city}.example.org`);
    }
  });

  it("refuses a name nginx would not take as a variable's", async () => {
    const out = join(prefix, "lyon", "out");
    for (const name of ["city-b", "1city", "", "a b"]) {
      const result = await runCli([
        "nginx",
        "--name",
        name,
        "--tree",
        out,
        "--upstream",
        "http://127.0.0.1:9",
      ]);
      expect(result.code, name).toBe(1);
      expect(result.stderr, name).toContain(`--name ${JSON.stringify(name)}`);
      expect(result.stderr).not.toContain("internal error");
    }
  });
});
