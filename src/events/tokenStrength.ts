// How much randomness a private page's token can carry, estimated from its characters alone: its
// length times the bits of the alphabet it draws from, less when it repeats itself. An estimate
// catches short, single-class and repetitive tokens; no estimate can prove a token random.

/** What a new private page's token should carry at least (docs/ingest.md, "Page tokens"). */
export const MIN_TOKEN_BITS = 128;

const HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;

/** The size of the alphabet `token` looks drawn from. */
const alphabetOf = (token: string): number => {
  if (/^[0-9]+$/.test(token)) return 10;
  if (HEX.test(token)) return 16;
  const lower = /[a-z]/.test(token);
  const upper = /[A-Z]/.test(token);
  const size =
    (/[0-9]/.test(token) ? 10 : 0) +
    (lower ? 26 : 0) +
    (upper ? 26 : 0) +
    (/[-_]/.test(token) ? 2 : 0) +
    (/[^0-9A-Za-z_-]/.test(token) ? 31 : 0); // the rest of printable ASCII
  // Both cases: base64 or base64url, even when a short random token happens to lack a digit.
  return lower && upper ? Math.max(size, 64) : size;
};

/** The bits of randomness `token` can carry at most, rounded down. */
export const tokenBits = (token: string): number => {
  const chars = Array.from(token); // code points: a character beyond ASCII counts once
  const alphabet = alphabetOf(token);
  const distinct = new Set(chars).size;
  // A random token uses most of what it could: under half is a repeated pattern, worth only its distinct characters.
  const repetitive = distinct < Math.min(alphabet, chars.length) / 2;
  return Math.floor(chars.length * Math.log2(repetitive ? distinct : alphabet));
};
