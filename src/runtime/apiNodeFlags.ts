// The node flags of a process that serves the public API, given when it starts: V8 sizes its young
// generation once, so unlike apiV8Tuning.ts a process cannot set this for itself. V8's two
// semi-spaces grow to 16 MB each under load and shrink back at rest: under a flood of requests
// that miss, that regrowth alone took 30 of the 50 MB of room the docs give the process
// (docs/operations.md, "Memory of an API process"). 8 MB halves it, for about 11 % more CPU per
// request that misses the memo (more scavenges) and none measurable on the memo's answers.

export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

// V8 takes its flags' names with - or _.
const named = (flag: string): string => (flag.split('=')[0] ?? '').replace(/_/g, '-');

/**
 * `execArgv` with the API flags the operator did not give (on the command line or in
 * NODE_OPTIONS): what an API process forked by node:cluster is started with.
 */
export const apiExecArgv = (execArgv: readonly string[], nodeOptions = ''): string[] => {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map(named);
  return [...execArgv, ...API_NODE_FLAGS.filter((flag) => !given.includes(named(flag)))];
};
