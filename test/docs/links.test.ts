// Every link to a heading in the README and docs/ leads to one: a heading renamed or a section
// moved must not leave a reader at the top of a 160 KB page.
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

const PAGES = ["README.md", "docs/benchmark.md", "docs/performance-history.md"];

/** The anchors GitHub makes of a page's headings (lower case, punctuation dropped, spaces as -). */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Each link to a heading on `page`: the page it leads to (from the root) and the anchor. */
function linksOf(page: string): [string, string][] {
  const text = readFileSync(join(ROOT, page), "utf8");
  return [...text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)].map(([, file, anchor]) => [
    file ? normalize(join(dirname(page), file as string)) : page,
    anchor as string,
  ]);
}

describe("links to headings", () => {
  it.each(PAGES)("%s: every one leads to a heading", (page) => {
    const links = linksOf(page);
    expect(links.length).toBeGreaterThan(0);
    const broken = links.filter(([target, anchor]) => !anchorsOf(target).has(anchor));
    expect(broken).toEqual([]);
  });
});
