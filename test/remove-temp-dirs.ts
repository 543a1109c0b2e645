// Set up before every test file (vitest.config.ts): its temporary folders go when its tests are
// done. Registered first, this hook runs after the file's own (vitest runs after-hooks as a
// stack), once the servers and processes they stop no longer write there.
import { afterAll } from "vitest";
import { removeTempDirs } from "./helpers.js";

afterAll(removeTempDirs);
