// Where a command's time went, for `--timings`: its wall time since the process started, cut into
// the steps the benchmark reports (read + validate, render, compress, write). Each moment belongs
// to one step, so the steps add up to the whole; a step met twice (a fast refresh that gave up,
// then the full one) adds up too.

export const STEPS = ["read", "render", "compress", "write"] as const;
export type Step = (typeof STEPS)[number];

const LABELS: Record<Step, string> = {
  read: "read + validate",
  render: "render",
  compress: "compress",
  write: "write",
};

export class StepTimes {
  readonly #seconds: Record<Step, number> = { read: 0, render: 0, compress: 0, write: 0 };
  // performance.now() counts from the process's start: Node's own start and the modules' loading
  // are part of what a cron minute costs, and go to the first step.
  #since = 0;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** The time since the last step ended (or the process started) was spent on `step`. */
  ended(step: Step): void {
    this.endedAt(step, this.#now());
  }

  /**
   * The same, for a step that ended at `time` (a `now()` of this clock) while this thread waited:
   * nothing when the last step ended after it.
   */
  endedAt(step: Step, time: number): void {
    if (time <= this.#since) return;
    this.#seconds[step] += (time - this.#since) / 1000;
    this.#since = time;
  }

  /** This clock's time (ms), for endedAt. */
  now(): number {
    return this.#now();
  }

  seconds(step: Step): number {
    return this.#seconds[step];
  }

  /** One line: `took 3.80 s: read + validate 1.45 s, render 0.72 s, compress 0.31 s, write 1.32 s`. */
  line(): string {
    const total = STEPS.reduce((sum, step) => sum + this.#seconds[step], 0);
    const parts = STEPS.map((step) => `${LABELS[step]} ${this.#seconds[step].toFixed(2)} s`);
    return `took ${total.toFixed(2)} s: ${parts.join(", ")}`;
  }
}
