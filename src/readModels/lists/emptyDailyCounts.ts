// The daily-counts answer of a month in which nothing happened: the projector stores no field for
// it, and it depends on the month alone. Same field order and bytes as the projector's render.
const pad2 = (n: number): string => String(n).padStart(2, '0');

const daysIn = (year: number, month: number): number => {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
};

/** JSON body for a `YYYY-MM` month with every day at 0, keys ascending. The month must be valid. */
export const emptyDailyCounts = (month: string): string => {
  const days = daysIn(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
  const counts: string[] = [];
  for (let day = 1; day <= days; day++) counts.push(`"${month}-${pad2(day)}":0`);
  return `{"counts":{${counts.join(',')}},"start_date":"${month}-01","end_date":"${month}-${pad2(days)}"}`;
};
