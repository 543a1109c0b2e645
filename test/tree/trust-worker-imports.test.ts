import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Every module a source file loads, transitively (type-only imports left out), as paths or package names. */
function loadedModules(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".ts")) return;
    const text = readFileSync(file, "utf8");
    for (const [, typeOnly, specifier] of text.matchAll(
      /^(?:import|export)\s+(type\s+)?(?:[^;]*?\sfrom\s+)?"([^"]+)";/gms,
    )) {
      if (typeOnly || !specifier || specifier.startsWith("node:")) continue;
      visit(
        specifier.startsWith(".")
          ? join(dirname(file), specifier).replace(/\.js$/, ".ts")
          : specifier,
      );
    }
  };
  visit(resolve(entry));
  return seen;
}

describe("the trust test's worker", () => {
  // It starts with every cron refresh: loading zod and the route table's schemas cost it ~85 ms.
  it("loads neither zod nor the route table", () => {
    const loaded = [...loadedModules("src/tree/trust-worker.ts")];
    expect(loaded.some((module) => module.endsWith("src/tree/manifest.ts"))).toBe(true);
    expect(loaded.filter((module) => module === "zod" || module.includes("/model/"))).toEqual([]);
    expect(loaded.filter((module) => module.endsWith("src/routes/routes.ts"))).toEqual([]);
  });
});
