// Vendors reject bodies past their documented limits, so every renderer cuts text to fit: with an
// ellipsis, and never through a surrogate pair (half an emoji is an invalid string to JSON parsers).
const ELLIPSIS = '…';

export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
};
