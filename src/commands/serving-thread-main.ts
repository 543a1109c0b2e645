// The serving thread's entry (see serving-thread.ts): the process's command line, run again here.
import { main } from "../cli.js";
import { servingArgv } from "./serving-thread.js";

await main(servingArgv());
