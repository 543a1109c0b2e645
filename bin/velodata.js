#!/usr/bin/env node
// Loads the compiled CLI (npm install compiles src/ into dist/).
import { main } from "../dist/cli.js";

await main(process.argv);
