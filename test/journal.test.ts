import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writesToJournal } from "../src/journal.js";
import { tempDir } from "./helpers.js";

const opened: number[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

async function openedFile(name: string): Promise<{ fd: number; stream: string }> {
  const fd = openSync(join(await tempDir(), name), "w");
  opened.push(fd);
  const { dev, ino } = fstatSync(fd);
  return { fd, stream: `${dev}:${ino}` };
}

describe("writesToJournal", () => {
  it("is true only for the stream systemd names in JOURNAL_STREAM", async () => {
    const journal = await openedFile("journal");
    const other = await openedFile("other");
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: journal.stream })).toBe(true);
    // A descriptor redirected elsewhere (a wrapper's `> file`) keeps the variable, not the stream.
    expect(writesToJournal(other.fd, { JOURNAL_STREAM: journal.stream })).toBe(false);
    expect(writesToJournal(journal.fd, {})).toBe(false);
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: "not a stream" })).toBe(false);
  });

  it("is false for a closed descriptor", async () => {
    const { fd, stream } = await openedFile("closed");
    closeSync(opened.pop() as number);
    expect(writesToJournal(fd, { JOURNAL_STREAM: stream })).toBe(false);
  });
});
