// CRC-32 (gzip's) of joined bytes from the CRC-32 of each part: a list of all stations is its
// contracts' lists joined, whose CRCs are known, so its own ~100 MB need not be read again.

// The polynomial, bits reflected as gzip's CRC-32 keeps them (x^0 is the highest bit).
const POLYNOMIAL = 0xedb88320;
const X0 = 0x80000000;

/** a·b modulo the polynomial (both reflected, as CRCs are). */
function multiply(a: number, b: number): number {
  let product = 0;
  let factor = b;
  for (let bit = X0; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= factor;
    // factor·x: one step of the shift register.
    factor = factor & 1 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
  }
  return product >>> 0;
}

// x^(2^k) modulo the polynomial, k = 0…63: squared from x^1.
const POWERS: number[] = [X0 >>> 1];
for (let k = 1; k < 64; k++) {
  const last = POWERS[k - 1] as number;
  POWERS.push(multiply(last, last));
}

/** x^(8·bytes) modulo the polynomial: what a CRC is multiplied by when that many bytes follow. */
function shiftOf(bytes: number): number {
  let shift = X0;
  // 8·bytes = bytes·2^3: the powers from x^(2^3) on, one per bit of `bytes`.
  let k = 3;
  for (let rest = bytes; rest > 0; rest = Math.floor(rest / 2), k++)
    if (rest % 2 === 1) shift = multiply(POWERS[k % 64] as number, shift);
  return shift;
}

/**
 * The CRC-32 of `first` bytes followed by `second` bytes, from the CRC-32 of each and the size of
 * the second: the first's CRC carried through as many zero bytes, added to the second's (the
 * initial and final inversions of each cancel out).
 */
export function crc32Combine(first: number, second: number, secondSize: number): number {
  return (multiply(shiftOf(secondSize), first) ^ second) >>> 0;
}
