// The command thread's entry (see command-thread.ts): the process's command line, run again here.
import { main } from "../cli.js";
import { commandArgv } from "./command-thread.js";

await main(commandArgv());
