// `npm run chaos [-- --short]`: runs the chaos schedule and prints its table; exit code 1 when
// anything was lost, counted twice, answered 500, took over 2 s or differs from a clean rebuild.
import { parseArgs } from 'node:util';
import { formatReport, passed } from './report.ts';
import { runChaos } from './runChaos.ts';

const { values } = parseArgs({ options: { short: { type: 'boolean', default: false } } });
const report = await runChaos({
  short: values.short,
  progress: (line) => process.stderr.write(`chaos: ${line}\n`),
});
console.log(formatReport(report));
console.error(`process logs: ${report.logFile}`);
process.exit(passed(report) ? 0 : 1);
