// The README's synopsis and table and docs/commands.md list every command `velodata --help` lists,
// in its order: a reader going from one to the other finds the same commands in the same places.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { program } from "../../src/cli.js";
import { ROOT } from "../helpers.js";

/** Every command and subcommand as the help lists them (`keys add`), without `help`. */
const COMMANDS = program([]).commands.flatMap((command) =>
  command.commands.length > 0
    ? command.commands.map((sub) => `${command.name()} ${sub.name()}`)
    : [command.name()],
);

const page = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The commands named by the lines of `text` that `pattern` (its group: the command) matches. */
const named = (text: string, pattern: RegExp): string[] =>
  [...text.matchAll(pattern)].map(([, command]) => (command as string).replace(/\s+/g, " "));

describe("the commands, as the docs list them", () => {
  it("are those of the help, in its order", () => {
    expect(COMMANDS).toContain("keys limit");
    // The README's section: its synopsis (a code block), then its table.
    const readme =
      page("README.md")
        .split(/^## Commands$/m)[1]
        ?.split(/^## /m)[0] ?? "";
    const synopsis = /^```\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? "";
    expect(named(synopsis, /^velodata ((?:keys +)?[a-z]+)/gm)).toEqual(COMMANDS);
    expect(named(readme, /^\| `((?:keys )?[a-z]+)` +\|/gm)).toEqual(COMMANDS);
    expect(named(page("docs/commands.md"), /^- \*\*`((?:keys )?[a-z]+)`\*\*:/gm)).toEqual(COMMANDS);
  });
});
