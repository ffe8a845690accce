// The worker process's V8 settings, applied when it loads (however it is started). V8 flushes the
// bytecode of functions it sees as idle, and with it their optimized code: the projector's
// per-job closures were compiled again and again (docs/scaling.md, "The worker's own CPU").
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-flush-bytecode');
