// What a build stopped by SIGINT or SIGTERM says as the process ends (command-thread.ts's
// `stopped`): nothing it wrote is served before its one switch, and the next build removes it.

/** Before the switch: the tree served is still the one the build was to replace, or none. */
export const stoppedBeforeSwitch = (out: string): string =>
  `build stopped; the tree served at ${out}, if any, is unchanged (the next build removes what this one left)`;

/** After it: the new tree is served whole; only the removal of the release it replaced was cut. */
export const stoppedAfterSwitch = (out: string): string =>
  `build stopped while removing the release it replaced; the new tree at ${out} is served whole (the next build removes what is left)`;
