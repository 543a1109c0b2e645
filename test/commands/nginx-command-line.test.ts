// The header's command line: each word quoted so that a shell reads it back as given, on one line.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLineOf, shellQuote } from "../../src/commands/nginx-command-line.js";

describe("the command line in the nginx configuration's header", () => {
  it("quotes each word so that a shell reads it back as it was, control characters escaped", () => {
    const words = ["plain/path.conf", "with space", "it's", "*.example.org", "$HOME", "a\nb\tc\\'"];
    const quoted = words.map(shellQuote);
    expect(quoted.slice(0, 2)).toEqual(["plain/path.conf", "'with space'"]);
    // A newline raw in the header would end nginx's comment there.
    expect(quoted.join(" ")).not.toMatch(/[\n\t]/);
    const read = spawnSync("bash", ["-c", `printf '%s\\0' ${quoted.join(" ")}`], {
      encoding: "utf8",
    });
    expect(read.stdout.split("\0").slice(0, -1)).toEqual(words);
  });

  it("gives the options that were given, and no other", () => {
    const upstream = new URL("http://127.0.0.1:8080/");
    expect(commandLineOf({ tree: "/srv/out", upstream: "http://127.0.0.1:8080/" }, upstream)).toBe(
      "velodata nginx --tree /srv/out --upstream http://127.0.0.1:8080",
    );
    expect(
      commandLineOf(
        {
          tree: "/srv/out",
          upstream: "x",
          brotli: false,
          keyCache: 3,
          maxConcurrentPerAddress: 0,
          name: "b",
        },
        upstream,
      ),
    ).toBe(
      "velodata nginx --name b --tree /srv/out --upstream http://127.0.0.1:8080 --key-cache 3 --max-concurrent-per-address 0 --no-brotli",
    );
  });

  it("makes every path absolute, so that the line runs again from any folder", () => {
    const upstream = new URL("http://127.0.0.1:8080/");
    const options = {
      tree: "out",
      upstream: "x",
      tlsCertificate: "tls/cert.pem",
      tlsKey: "./tls/key.pem",
      cacheDir: "cache",
      accessLog: "logs/access.log",
      outputFile: "velodata.conf",
    };
    const at = (path: string) => shellQuote(join(process.cwd(), path));
    expect(commandLineOf(options, upstream)).toBe(
      `velodata nginx --tree ${at("out")} --upstream http://127.0.0.1:8080 --tls-certificate ${at("tls/cert.pem")} --tls-key ${at("tls/key.pem")} --cache-dir ${at("cache")} --access-log ${at("logs/access.log")} --output ${at("velodata.conf")}`,
    );
    // No path: nginx's own words for no log, and a syslog target.
    for (const accessLog of ["off", "syslog:server=unix:/dev/log"])
      expect(commandLineOf({ ...options, accessLog }, upstream)).toContain(
        `--access-log ${accessLog} `,
      );
  });
});
