// docs/deploy.md prints the shipped proxy configurations: what an operator copies from it is what
// the topology suite (npm run test:edges) runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const docs = readFileSync(join(root, 'docs/deploy.md'), 'utf8');

describe('docs/deploy.md', () => {
  it.each([
    'deploy/Caddyfile',
    'deploy/nginx.conf',
    'deploy/statuspage-proxy.conf',
    'deploy/statuspage-cache.conf',
  ])('prints %s as shipped', (file) => {
    expect(docs).toContain(`\n${readFileSync(join(root, file), 'utf8')}\`\`\`\n`);
  });
});
