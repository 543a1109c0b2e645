// The median the benchmark's scripts report over rounds, minutes and tries (the upper middle of an even count).
export const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
