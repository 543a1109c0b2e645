// The number of a station or a parking: its clients read it as a 32-bit int, so it takes a
// count's bounds, checked and worded as a count's are (see int32.ts). The API's URLs take up to
// 15 digits (every such number exact in a double), more than any such number has.
import { count } from "./int32.js";

export const MAX_NUMBER_DIGITS = 15;

export const recordNumber = count;
