import { describe, expect, it } from "vitest";
import { tooManyMissing } from "../../src/source/missing-stations.js";
import { type Problem, warning } from "../../src/source/problems.js";

const inError = (index: number, station?: string): Problem =>
  warning(
    { file: "states.json", index, ...(station === undefined ? {} : { station }) },
    "status",
    'must be one of "OPEN", "CLOSED", got "open"',
  );

describe("tooManyMissing", () => {
  it("names the stations with no record as not in the file when every state in error says its station", () => {
    const said = tooManyMissing(3, 10, 0.1, {
      unreported: ["dublin #1", "dublin #2"],
      leftOut: [inError(4, "dublin/3")],
    });
    expect(said).toContain(
      "; 2 stations not in it (dublin #1, dublin #2); 1 state in error left out",
    );
  });

  it("says the stations named may be those of a state in error that does not say its station", () => {
    const said = tooManyMissing(3, 10, 0.1, {
      unreported: ["dublin #1", "dublin #2", "dublin #3"],
      // Two problems of one record: one state.
      leftOut: [inError(4), { ...inError(4), field: "connected" }, inError(5, "dublin/9")],
    });
    expect(said).toContain(
      "; 3 stations not in it, or of its state in error that does not say its station (dublin #1, dublin #2, dublin #3); 2 states in error left out",
    );
  });
});
