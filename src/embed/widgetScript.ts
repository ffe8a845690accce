import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

// Read once at startup: the script is static, so its bytes and ETag never change while the process runs.
export const widgetScriptBytes: Buffer = readFileSync(new URL('./widgetScript.js', import.meta.url));

export const widgetScriptEtag: string = `"${createHash('sha1')
  .update(widgetScriptBytes)
  .digest('base64url')
  .slice(0, 27)}"`;
