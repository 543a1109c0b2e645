// What a refresh stopped by SIGINT or SIGTERM says as the process ends. Until it moves its first
// file into the tree it has changed nothing; from then until its state for the next run is saved,
// a stop waits (refresh.ts), so only a second one sees the tree mid-move, marked for repair.

/** Where the refresh stood: before the moves, during them, or past the seal. */
export type RefreshPhase = "before" | "moving" | "moved";

export function refreshStopped(out: string, phase: RefreshPhase): string {
  if (phase === "before") return `refresh stopped; the tree at ${out} is unchanged`;
  if (phase === "moving")
    return `refresh stopped while moving its files in; the tree at ${out} is partly updated and marked so: the next refresh or build repairs it`;
  return `refresh stopped once its files were in; the tree at ${out} is the new release, whole`;
}
