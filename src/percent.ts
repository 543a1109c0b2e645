// A share as people read it in a message: 0.2437 → "24.4%".
export const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;
