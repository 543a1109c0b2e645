// Reading source text through the pipeline: strict UTF-8, byte order marks, separators, short echoes.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { readSourceText } from "../../src/source/read-text.js";
import { besidesFixtureWarning, fixtureCopy, tempDir } from "../helpers.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe("source text", () => {
  it("refuses a Latin-1 CSV, naming the file, the line and what to do", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const text = await readFile(csv, "utf8");
    // Line 3 holds the first é once the file is Latin-1 (latin1 encodes é as the single byte 0xe9).
    const edited = text.replace("PARNELL SQUARE NORTH", "PARNELL SQUARE NORTH Médiathèque");
    await writeFile(csv, Buffer.from(edited, "latin1"));
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(problems.map(formatProblem)).toContain(
      `${csv}:3: is not UTF-8 text (byte 0xe9 at offset ${Buffer.byteLength(edited.slice(0, edited.indexOf("é")), "latin1")} cannot be decoded; Latin-1 or Windows-1252 exports do this): re-save it as UTF-8 (in a spreadsheet: "CSV UTF-8")`,
    );
  });

  it("refuses a JSON file that is not UTF-8, past a real U+FFFD", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "parkings.json");
    const text = (await readFile(path, "utf8")).replace('"Rue de la Gare"', '"Rue \ufffd Gare"');
    const bytes = Buffer.concat([Buffer.from(text, "utf8"), Buffer.from("\n\xe9", "latin1")]);
    await writeFile(path, bytes);
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    const last = text.split("\n").length + 1;
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${path}:${last}: is not UTF-8 text \\(byte 0xe9 .*\\(in an editor: the encoding UTF-8\\)$`,
        ),
      ),
    );
  });

  it("accepts a UTF-8 byte order mark in CSV and in JSON, and keeps the text whole", async () => {
    const dir = await fixtureCopy();
    for (const name of ["stations.csv", "parkings.json", "contracts.json", "states.json"]) {
      const path = join(dir, name);
      await writeFile(path, Buffer.concat([BOM, await readFile(path)]));
    }
    const { dataset, problems } = await readDataset(dir);
    expect(problems.filter((problem) => problem.severity === "error")).toEqual([]);
    expect(dataset?.stations[0]).toMatchObject({ contract: "dublin", number: 42 });
    expect(dataset?.parkings.find((parking) => parking.number === 89)?.city).toBe("Rezé");
    expect(dataset?.states.size).toBe(413);
  });

  it("reads a ;-separated CSV as the same records, decimal commas or points", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const text = await readFile(csv, "utf8");
    const stationsOf = async () => {
      const { dataset, problems } = await readDataset(dir);
      expect(problems.filter((problem) => problem.severity === "error")).toEqual([]);
      return dataset?.stations;
    };
    const asWritten = await stationsOf();
    // The points kept ("53.349562", as LibreOffice writes them with ";" chosen), then commas.
    await writeFile(
      csv,
      semicolonSeparated(text, (cell) => cell),
    );
    expect(await stationsOf()).toEqual(asWritten);
    await writeFile(
      csv,
      semicolonSeparated(text, (cell) => cell.replace(/^(-?\d+)\.(\d+)$/, "$1,$2")),
    );
    expect(await stationsOf()).toEqual(asWritten);
  });

  it("says of a ;-separated row what a ; may have done, and a whole number's comma as ever", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const rows = semicolonSeparated(await readFile(csv, "utf8"), (cell) => cell).split("\r\n");
    rows[1] = (rows[1] as string).slice(0, (rows[1] as string).lastIndexOf(";"));
    rows[2] = (rows[2] as string).replace(";false;false;false;20;", ";false;false;false;2,5;");
    await writeFile(csv, rows.join("\r\n"));
    const { problems } = await readDataset(dir);
    const lines = problems.filter((problem) => problem.severity === "error").map(formatProblem);
    expect(lines).toEqual([
      expect.stringMatching(
        /stations\.csv:2: has 10 cells where the header has 11: a cell left out \(every column needs its semicolon, even when empty\)\?$/,
      ),
      expect.stringMatching(
        /stations\.csv:3 \(dublin #30\) capacity: must be a whole number, got "2,5"$/,
      ),
    ]);
  });

  it("names the cause of Excel's other exports: its separator line, tabs, a comma after the header", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const text = await readFile(csv, "utf8");
    const header = text.slice(0, text.indexOf("\r\n"));
    const cases: [string, string][] = [
      [
        `sep=,\r\n${text}`,
        `starts with Excel's separator line "sep=,": remove that line, so that the header (contract,number,…) is the first`,
      ],
      [
        `sep=;\r\n${text}`,
        `starts with Excel's separator line "sep=;": remove that line, so that the header (contract,number,…) is the first`,
      ],
      [
        text.replaceAll(",", "\t"),
        `the columns are separated by tabs: velodata reads CSV separated by "," (or ";", as a spreadsheet in a French or German locale exports it); export it again as CSV`,
      ],
      [
        text.replace(header, `${header},,`),
        `column 12: has no name in the header (a comma too many at its end?)`,
      ],
    ];
    for (const [written, problem] of cases) {
      await writeFile(csv, written);
      const lines = (await readDataset(dir)).problems.map(formatProblem);
      expect(lines).toEqual([`${csv}:1${problem.startsWith("column") ? " " : ": "}${problem}`]);
    }
  });

  it("reads empty columns a spreadsheet exports after the named ones, when every row has them", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const { dataset: before } = await readDataset(dir);
    const text = await readFile(csv, "utf8");
    // Every line, the header too, with two empty cells more (columns once formatted in the sheet).
    await writeFile(csv, text.replaceAll("\r\n", ",,\r\n"));
    const { dataset, problems } = await readDataset(dir);
    expect(besidesFixtureWarning(problems.map(formatProblem))).toEqual([]);
    expect(dataset?.stations).toEqual(before?.stations);
  });

  it("refuses a value under a column the header leaves unnamed, naming its row and column", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const rows = (await readFile(csv, "utf8")).split("\r\n");
    const edited = rows.map((row, at) =>
      row === "" ? row : `${row},${at === 4 ? "see note" : ""}`,
    );
    await writeFile(csv, edited.join("\r\n"));
    const { dataset, problems } = await readDataset(dir);
    expect(dataset).toBeUndefined();
    expect(besidesFixtureWarning(problems.map(formatProblem))).toEqual([
      `${csv}:5 column 12: holds "see note" under no name in the header: name the column there, or leave its cells empty`,
    ]);
  });

  it("says of each row with a cell too many or too few which it is, and what may have happened, and checks the other rows in the same run", async () => {
    const dir = await fixtureCopy();
    const csv = join(dir, "stations.csv");
    const rows = (await readFile(csv, "utf8")).split("\r\n");
    rows[1] = (rows[1] as string).slice(0, (rows[1] as string).lastIndexOf(","));
    rows[3] = (rows[3] as string).replace(",false,false,false,", ",yes,false,false,");
    rows[5] = `${rows[5]},x`;
    rows[7] = `${rows[7]},, ,`;
    await writeFile(csv, rows.join("\r\n"));
    // Only what the rows say: no station said missing a state, nor a state said of no station,
    // since the broken rows may have held any.
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${csv}:2: has 10 cells where the header has 11: a cell left out (every column needs its comma, even when empty)?`,
      `${csv}:6: has 12 cells where the header has 11: a comma inside a cell not in quotes ("a, b")?`,
      `${csv}:8: has 14 cells where the header has 11: the cells past the header's columns are empty: commas too many at the end of the line?`,
      `${csv}:4 (dublin #54) banking: expected true or false, got "yes": English for true; write true`,
    ]);
  });

  it("reports a states.json syntax error alone, without a warning for every station", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    await writeFile(states, (await readFile(states, "utf8")).replace('"states"', '"states",'));
    const { problems } = await readDataset(dir);
    expect(besidesFixtureWarning(problems.map(formatProblem))).toEqual([
      `${states}:2: is not valid JSON at column 10: Expected ':' after property name`,
    ]);
  });

  it("says a CSV file given as the states file reads as CSV, by its header", async () => {
    const dir = await fixtureCopy();
    const stations = join(dir, "stations.csv");
    const { problems } = await readDataset(dir, stations);
    expect(besidesFixtureWarning(problems.map(formatProblem))).toEqual([
      `${stations}: is not valid JSON: it reads as CSV (its first line: contract,number,name,…): another file?`,
    ]);
  });

  it("gives a column, not V8's offset in the whole file, and says what V8's words mean", async () => {
    const dir = await fixtureCopy();
    const contracts = join(dir, "contracts.json");
    const text = await readFile(contracts, "utf8");
    const cases: [string, string][] = [
      [
        text.replace('"name": "dublin"', "'name': 'dublin'"),
        `:4: is not valid JSON at column 7: Expected property name or '}' (names and texts take double quotes in JSON, not single ones)`,
      ],
      [
        text.replace('"commercial_name": "dublinbikes"', '"commercial_name": "dublin\tbikes"'),
        ":5: is not valid JSON at column 33: Bad control character in string literal (a tab or line break inside a text: write it \\t or \\n)",
      ],
    ];
    for (const [written, problem] of cases) {
      await writeFile(contracts, written);
      expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
        `${contracts}${problem}`,
      ]);
    }
  });

  it("locates a comma left after the last state, and says what it is", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    const text = await readFile(states, "utf8");
    const end = text.lastIndexOf("]");
    await writeFile(states, `${text.slice(0, end).trimEnd()},\n${text.slice(end)}`);
    const line = text.slice(0, end).trimEnd().split("\n").length + 1; // the "]" after the comma
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${states}:${line}: is not valid JSON: "]" after a comma (JSON allows no comma after the last item)`,
    ]);
  });

  it("names a comma left after an object's last field, and keeps V8's quote where no line is found", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    const text = await readFile(states, "utf8");
    // The first state's last field followed by a comma: V8 expects a property name there.
    const end = text.indexOf('"overflowStands": null') + '"overflowStands": null'.length;
    await writeFile(states, `${text.slice(0, end)},${text.slice(end)}`);
    const line = text.slice(0, end).split("\n").length + 1; // the "}" after the comma
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${states}:${line}: is not valid JSON: "}" after a comma (JSON allows no comma after the last item)`,
    ]);
    // The same text around the error in every record: no line, but the comma and V8's quote.
    const repeated = text.replaceAll('"overflowStands": null', '"overflowStands": [1, 2, ]');
    await writeFile(states, repeated);
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${states}: is not valid JSON: "]" after a comma (JSON allows no comma after the last item)`,
    ]);
    await writeFile(states, text.replaceAll('"overflowStands": null', '"overflowStands": nul'));
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      expect.stringMatching(new RegExp(`^${states}: is not valid JSON: Unexpected token .*": nul`)),
    ]);
  });

  it("locates an unexpected character V8 gives no position for, from the text it quotes", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    const text = await readFile(states, "utf8");
    // The 100th state's status in single quotes: a quoted text found once in the file.
    const at = text.split('"status": "OPEN"', 100).join('"status": "OPEN"').length;
    await writeFile(states, `${text.slice(0, at)}"status": 'OPEN'${text.slice(at + 16)}`);
    const line = text.slice(0, at).split("\n").length;
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${states}:${line}: is not valid JSON: unexpected "'"`,
    ]);
  });

  it("locates an unexpected character in a short file, which V8 quotes whole", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    await writeFile(states, '{"states": [}');
    expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
      `${states}:1: is not valid JSON: unexpected "}"`,
    ]);
  });

  it("says a comment is one, wherever V8 stumbles on it: for a name, after a value, in a list", async () => {
    const dir = await fixtureCopy();
    const contracts = join(dir, "contracts.json");
    const text = await readFile(contracts, "utf8");
    const name = '"name": "dublin",';
    const edits = [
      { from: name, to: `// the capital\n      ${name}`, comment: "//" },
      { from: name, to: `${name} // the capital`, comment: "//" },
      { from: name, to: `/* old */ ${name}`, comment: "/*" },
      { from: '"contracts": [', to: '"contracts": [ // all of them', comment: "//" },
    ];
    for (const { from, to, comment } of edits) {
      const edited = text.replace(from, to);
      await writeFile(contracts, edited);
      const at = edited.indexOf(comment);
      const line = edited.slice(0, at).split("\n").length;
      const column = at - edited.lastIndexOf("\n", at - 1);
      expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
        `${contracts}:${line}: is not valid JSON at column ${column}: a ${comment} comment (JSON has no comments: remove it, or keep the note in a field of its own)`,
      ]);
    }
  });

  it("says a states file cut short is so, at its last line, wherever the cut falls", async () => {
    const dir = await fixtureCopy();
    const states = join(dir, "states.json");
    const text = await readFile(states, "utf8");
    // Between tokens, inside a string, inside a number.
    const cuts = [
      text.slice(0, Math.floor(text.length / 2)),
      text.slice(0, text.indexOf('"OPEN"') + 3),
      text.slice(0, text.indexOf('"bikes": ') + 10),
    ];
    for (const cut of cuts) {
      await writeFile(states, cut);
      const lastLine = cut.trimEnd().split("\n").length;
      expect(besidesFixtureWarning((await readDataset(dir)).problems.map(formatProblem))).toEqual([
        `${states}:${lastLine}: is not valid JSON: it ends before its JSON does (cut short? a copy made while it was written)`,
      ]);
    }
  });

  it("echoes only a short excerpt of a huge bad value", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "parkings.json");
    const huge = "x".repeat(1_000_000);
    await writeFile(
      path,
      (await readFile(path, "utf8"))
        .replace('"zipCode": "44400"', `"zipCode": 1, "${huge}": 1`)
        .replace('"isFree": true', `"isFree": "${huge}"`),
    );
    const states = join(dir, "states.json");
    await writeFile(states, (await readFile(states, "utf8")).replace('"OPEN"', `"${huge}"`));
    const { problems } = await readDataset(dir);
    const text = problems.map(formatProblem).join("\n");
    expect(problems.length).toBeGreaterThanOrEqual(4);
    expect(text.length).toBeLessThan(3000);
    expect(text).toContain("… (1000000 characters)");
  });

  it("prints control characters of a bad value as text, never as terminal commands", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "parkings.json");
    await writeFile(
      path,
      (await readFile(path, "utf8")).replace(
        '"contract": "nantes"',
        '"contract": "nan\\u001b[2Jtes"',
      ),
    );
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    expect(lines).toContain(
      `${path}[0] (nan\\x1b[2Jtes #89) contract: unknown contract "nan\\x1b[2Jtes" (not in contracts.json)`,
    );
  });

  it("reports very deep JSON values as a wrong type, without overflowing the stack", async () => {
    const dir = await fixtureCopy();
    const path = join(dir, "parkings.json");
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    await writeFile(
      path,
      (await readFile(path, "utf8")).replace('"zipCode": "44400"', `"zipCode": ${deep}`),
    );
    const lines = (await readDataset(dir)).problems.map(formatProblem);
    expect(lines).toContain(`${path}[0] (nantes #89) zipCode: expected string, got an array`);
  });
});

describe("a states file read into the kept buffer", () => {
  it("gives each file its own text: bigger ones than before, and two read at once", async () => {
    const dir = await tempDir();
    const texts = [10, 3 << 20, 100, 1 << 20].map((size, n) => `${n}`.repeat(size));
    const paths = texts.map((_, n) => join(dir, `states-${n}.json`));
    await Promise.all(texts.map((text, n) => writeFile(paths[n] as string, text)));
    for (const [n, path] of paths.entries())
      expect(await readSourceText(path, path, true)).toEqual({ text: texts[n] });
    const together = await Promise.all(paths.map((path) => readSourceText(path, path, true)));
    expect(together).toEqual(texts.map((text) => ({ text })));
  });
});

/** `text`, CSV, as a spreadsheet writes it with ";" between cells, each cell through `cell`. */
function semicolonSeparated(text: string, cell: (written: string) => string): string {
  const rows: string[][] = parse(text, { bom: true });
  return stringify(
    rows.map((row) => row.map(cell)),
    { delimiter: ";", record_delimiter: "\r\n" },
  );
}
