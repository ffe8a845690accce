// One rounding for every percentage, so that figures computed in different places agree to the digit.

/**
 * 100 × up ÷ total in thousandths of a percent, rounded half up. Callers pass integers (ms or s):
 * the single division keeps float noise from deciding a rounding at an exact half.
 */
export const uptimeThousandths = (up: number, total: number): number => Math.round((up * 100_000) / total);

/** 100 × up ÷ total rounded to 3 decimals. */
export const uptimePercent = (up: number, total: number): number => uptimeThousandths(up, total) / 1000;
