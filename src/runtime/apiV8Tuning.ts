// The API process's V8 settings, applied when its listener's module loads (serve.ts: `serve`,
// `start` and every WEB_CONCURRENCY process). Under a flood of requests that nearly all miss, V8
// promotes much of their garbage to the old space and, by its default growing (up to 4 × what
// survived the last full collection), let it reach 130–145 MB for 30–35 MB live: the RSS grew by
// 150–185 MB over 20 s of a page's distinct valid URLs with READ_CACHE_MAX_MB=16. Growing by 30 %
// (V8's own factor when it saves memory) keeps the peak near what is kept, for more frequent full
// collections (docs/operations.md, "Memory of an API process"). Not a cap: the limit follows what
// is live, open streams' buffers included. The young generation's size is a flag node must get
// at start (apiNodeFlags.ts).
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--heap-growing-percent=30');
