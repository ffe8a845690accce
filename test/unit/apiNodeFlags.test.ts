import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, apiExecArgv } from '../../src/runtime/apiNodeFlags.ts';
import { root } from '../support/operatorKit.ts';

const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const SERVE = ['node', '--max-semi-space-size=8', 'dist/main.js', 'serve'];

describe('the node flags of an API process', () => {
  it('cap the young generation at two 8 MB semi-spaces', () => {
    expect(API_NODE_FLAGS).toEqual(['--max-semi-space-size=8']);
  });

  it('are added to what a forked API process inherits', () => {
    expect(apiExecArgv([])).toEqual(['--max-semi-space-size=8']);
    expect(apiExecArgv(['--import', 'tsx'], '--enable-source-maps')).toEqual([
      '--import',
      'tsx',
      '--max-semi-space-size=8',
    ]);
  });

  it("leave the operator's own size, on the command line or in NODE_OPTIONS, spelled with - or _", () => {
    expect(apiExecArgv(['--max-semi-space-size=32'])).toEqual(['--max-semi-space-size=32']);
    expect(apiExecArgv(['--max_semi_space_size=4'])).toEqual(['--max_semi_space_size=4']);
    expect(apiExecArgv(['--enable-source-maps'], ' --max-semi-space-size=16 --trace-gc')).toEqual([
      '--enable-source-maps',
    ]);
  });

  it('are on every command line the project starts `serve` with', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['serve']).toBe(SERVE.join(' '));
    // npm start's own process runs the projector too: only the API processes it forks get them.
    expect(scripts['start']).toBe('node dist/main.js start');
    expect(read('Dockerfile')).toContain(`\nCMD ${JSON.stringify(SERVE).replaceAll(',', ', ')}\n`);
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, { command?: string[] }> };
    expect(compose.services['api']?.command).toEqual(SERVE);
    const deployment = parse(read('deploy/kubernetes/api-deployment.yaml')) as {
      spec: { template: { spec: { containers: { command: string[] }[] } } };
    };
    expect(deployment.spec.template.spec.containers[0]?.command).toEqual(SERVE);
  });
});
