// How long after its last change a file's `stat` may stand for its bytes.

/**
 * Files changed this close before they were seen are read again by the next run: a change in the
 * same clock tick as the one before, of the same size, leaves the same times (git's "racily
 * clean" files).
 */
export const RACY_MS = 2000;
