// A value the code around it guarantees (an index in range of a list built alongside, a key just
// set): if the guarantee ever breaks, the error names what was missing, where it broke.

class MissingValue extends Error {
  override readonly name = 'MissingValue';
}

/** `value`, known to be there. @throws MissingValue naming `what` when it is null or undefined */
export const must = <T>(value: T, what: string): NonNullable<T> => {
  if (value === undefined || value === null) throw new MissingValue(`${what} is missing`);
  return value;
};
