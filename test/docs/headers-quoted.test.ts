// Where the docs quote the headers a page's script may read, they quote those every answer
// carries: a web developer copies them into a CORS rule or a proxy's configuration.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXPOSED_HEADERS } from "../../src/routes/methods.js";
import { ROOT } from "../helpers.js";

/** Each `Access-Control-Expose-Headers: …` a page quotes in code, its lines joined. */
const quoted = (path: string): string[] =>
  [
    ...readFileSync(join(ROOT, path), "utf8")
      .replace(/\s*\n\s*/g, " ")
      .matchAll(/`Access-Control-Expose-Headers: ([^`]+)`/g),
  ].map(([, value]) => value as string);

describe("Access-Control-Expose-Headers, as the docs quote it", () => {
  it("is the value the answers carry", () => {
    for (const path of ["README.md", "docs/object-storage.md"]) {
      const values = quoted(path);
      expect(values.length, path).toBeGreaterThan(0);
      for (const value of values) expect(value, path).toBe(EXPOSED_HEADERS);
    }
  });
});
