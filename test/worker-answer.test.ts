// A worker thread started for one answer: its first message, or why there is none.
import { describe, expect, it } from "vitest";
import { workerAnswer } from "../src/worker-answer.js";

const worker = (code: string) => new URL(`data:text/javascript,${encodeURIComponent(code)}`);

describe("workerAnswer", () => {
  it("gives the worker's first message", async () => {
    const code = `import { parentPort, workerData } from "node:worker_threads";
      parentPort.postMessage(workerData * 2); parentPort.postMessage(0);`;
    await expect(workerAnswer(worker(code), "the doubler", { workerData: 21 })).resolves.toBe(42);
  });

  it("says which worker ended before answering, and with what code", async () => {
    await expect(workerAnswer(worker("process.exit(3);"), "the quitter", {})).rejects.toThrow(
      "the quitter ended with code 3 before answering",
    );
  });

  it("passes on what the worker threw", async () => {
    await expect(
      workerAnswer(worker('throw new Error("no bikes");'), "the thrower", {}),
    ).rejects.toThrow("no bikes");
  });
});
