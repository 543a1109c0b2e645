// Where a source folder's station states are read from unless --state says otherwise. Its own
// module: the command line reads it before the build's thread, without the source's schemas.
export const STATES_FILE = "states.json";
