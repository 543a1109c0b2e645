// Every link in the README and docs/ leads somewhere: a heading renamed or a section moved must not
// leave a reader at the top of a long page, and a page renamed must not leave a link to nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

/** The README and every page of docs/, so that a new page is checked without being listed. */
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

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

/**
 * Each link on `page` to a file or folder of the repository (not to a URL, not to a heading of
 * the page itself), as written and as a path from the root. Code blocks and code spans are left
 * out: what they hold is not a link.
 */
function fileLinksOf(page: string): [string, string][] {
  const text = readFileSync(join(ROOT, page), "utf8")
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .map((target) => [target, normalize(join(dirname(page), target.replace(/[?#].*$/, "")))]);
}

describe("links to headings", () => {
  it.each(PAGES)("%s: every one leads to a heading", (page) => {
    const links = linksOf(page);
    expect(links.length).toBeGreaterThan(0);
    const broken = links.filter(([target, anchor]) => !anchorsOf(target).has(anchor));
    expect(broken).toEqual([]);
  });
});

describe("links to files", () => {
  it.each(PAGES)("%s: every one names a file or folder of the repository", (page) => {
    const links = fileLinksOf(page);
    expect(links.length).toBeGreaterThan(0);
    const broken = links.filter(
      ([, path]) => path.startsWith("..") || !existsSync(join(ROOT, path)),
    );
    expect(broken).toEqual([]);
  });
});
