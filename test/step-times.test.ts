import { describe, expect, it } from "vitest";
import { StepTimes } from "../src/step-times.js";

describe("StepTimes", () => {
  it("gives each moment to the step that ended it, from the process's start, and adds a step met twice", () => {
    const at = [400, 1000, 1300, 1500, 2500, 3000];
    const steps = new StepTimes(() => at.shift() as number);
    steps.ended("read"); // 0 → 400 ms
    steps.ended("render"); // → 1000
    steps.ended("read"); // → 1300: a fast path given up, the full one read again
    steps.ended("compress"); // → 1500
    steps.ended("write"); // → 2500
    steps.ended("write"); // → 3000: the tail after the tree is written
    expect(steps.seconds("read")).toBeCloseTo(0.7);
    expect(steps.seconds("render")).toBeCloseTo(0.6);
    expect(steps.seconds("compress")).toBeCloseTo(0.2);
    expect(steps.seconds("write")).toBeCloseTo(1.5);
    expect(steps.line()).toBe(
      "took 3.00 s: read + validate 0.70 s, render 0.60 s, compress 0.20 s, write 1.50 s",
    );
  });

  it("gives a wait to the step that ended in it, and the rest to the next: never a moment twice", () => {
    const at = [1000, 1500, 2000, 2600];
    const steps = new StepTimes(() => at.shift() as number);
    steps.ended("write"); // 0 → 1000 ms: staging
    steps.endedAt("read", 1300); // the trust test answered 300 ms into the wait
    steps.ended("compress"); // → 1500
    steps.endedAt("read", 1200); // an answer that came before: nothing more
    steps.ended("write"); // → 2000
    expect(steps.now()).toBe(2600);
    expect([steps.seconds("write"), steps.seconds("read"), steps.seconds("compress")]).toEqual([
      1.5, 0.3, 0.2,
    ]);
  });

  it("says a step never met as 0", () => {
    const at = [250];
    const steps = new StepTimes(() => at.shift() as number);
    steps.ended("write");
    expect(steps.line()).toBe(
      "took 0.25 s: read + validate 0.00 s, render 0.00 s, compress 0.00 s, write 0.25 s",
    );
  });
});
