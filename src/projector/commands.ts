// A batch's effect on Redis, as a list of plain commands that one Lua script applies together
// with the checkpoint compare-and-set (commitBatch.ts). Building them is pure; applying is atomic.
export type Command = readonly (string | number)[];

export type CommandList = {
  readonly commands: Command[];
  push: (...command: (string | number)[]) => void;
};

export const commandList = (): CommandList => {
  const commands: Command[] = [];
  return { commands, push: (...command) => void commands.push(command) };
};

/** The commands as the commit script reads them: a JSON array of string arrays. */
export const encodeCommands = (commands: readonly Command[]): string =>
  JSON.stringify(commands, (_key, value: unknown) => (typeof value === 'number' ? String(value) : value));
