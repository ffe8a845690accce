import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cliIngest, type CliIngestArgs } from '../../src/ingest/cliIngest.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const clock = () => new Date('2026-11-22T12:00:00Z');

const page = (slug: string) => ({
  type: 'page.configured',
  page: slug,
  at: '2026-11-22T10:00:00Z',
  data: { title: slug, plan: 'pro' },
});
const monitor = (slug: string, id: number) => ({
  type: 'monitor.configured',
  page: slug,
  at: '2026-11-22T10:00:00Z',
  data: { monitor_id: id, name: `m${String(id)}` },
});
const check = (slug: string, id: number, i: number) => ({
  type: 'check.recorded',
  page: slug,
  at: new Date(Date.parse('2026-11-20T00:00:00Z') + i * 30_000).toISOString(),
  data: { monitor_id: id, status: 'up', response_time_ms: i % 500 },
});
const ndjson = (lines: readonly (object | string)[]) =>
  `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
};

describe('npm run ingest (cliIngest)', () => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await freshDatabase();
    dir = await mkdtemp(join(tmpdir(), 'ingest-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const fileOf = async (name: string, content: string) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };
  const run = async (source: string, extra: Partial<CliIngestArgs> = {}) => {
    const out = sink();
    const err = sink();
    const woken: string[][] = [];
    const code = await cliIngest({
      db: t.db,
      source,
      clock,
      wake: (pages) => {
        woken.push(pages);
        return Promise.resolve();
      },
      out: out.stream,
      err: err.stream,
      isTTY: false,
      ...extra,
    });
    return { code, out: out.text(), err: err.text(), woken };
  };
  const count = (slug: string) =>
    t.db.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log WHERE page = ${slug}`,
    );
  const lastPosition = () =>
    t.db.oneFirst(sql.type(z.object({ p: z.string() }))`SELECT max(position)::text AS p FROM event_log`);

  it('appends a file of 5,000 events, a chunk of 2,000 per transaction', async () => {
    const lines = [
      page('big'),
      monitor('big', 1),
      ...Array.from({ length: 4_998 }, (_, i) => check('big', 1, i)),
    ];
    const path = await fileOf('big.ndjson', ndjson(lines.map((e, i) => ({ id: `big-${String(i)}`, ...e }))));
    const result = await run(path);
    expect(result).toEqual({
      code: 0,
      out: `appended 5000, duplicates 0, last position ${await lastPosition()}\n`,
      err: '',
      woken: [['big'], ['big'], ['big']], // each chunk wakes the projectors once committed
    });
    expect(await count('big')).toBe(5_000);

    const again = await run(path);
    expect(again).toEqual({
      code: 0,
      out: 'appended 0, duplicates 5000, last position none\n',
      err: '',
      woken: [],
    });
    expect(await count('big')).toBe(5_000);
  });

  it('appends a page with a weak token and warns about it by line, never printing the token', async () => {
    const weak = {
      ...page('weak-token'),
      data: { title: 'w', plan: 'pro', auth_token: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    };
    const path = await fileOf('weak.ndjson', ndjson([page('strong-token'), weak]));
    const result = await run(path);
    expect([result.code, result.err]).toEqual([
      0,
      'line 2: warning: page "weak-token": auth_token carries at most 0 bits of randomness, fewer than 128: ' +
        'replace it with 32 random hex characters (openssl rand -hex 16) or more\n',
    ]);
    expect(await count('weak-token')).toBe(1);
  });

  it('names every bad line by its number and appends nothing', async () => {
    const path = await fileOf(
      'bad.ndjson',
      ndjson([
        page('bad'),
        monitor('bad', 2),
        { ...check('bad', 2, 0), data: { monitor_id: 2, status: 'sideways', response_time_ms: 1 } },
        check('bad', 2, 1),
        '',
        check('bad', 2, 2),
        '{"type": ',
        check('bad', 2, 3),
      ]),
    );
    const result = await run(path);
    expect(result).toEqual({
      code: 1,
      out: '',
      err:
        "line 3: data.status: Invalid enum value. Expected 'up' | 'down' | 'degraded', received 'sideways'\n" +
        'line 7: invalid JSON\n' +
        'rejected: 2 invalid events of 7; nothing appended\n',
      woken: [],
    });
    expect(await count('bad')).toBe(0);
  });

  it('keeps the chunks before an event the log refuses, and resumes after the last line committed', async () => {
    const lines = [
      page('late'),
      monitor('late', 3),
      ...Array.from({ length: 4_998 }, (_, i) => check('late', 3, i)),
    ];
    lines[4_000] = check('late', 99, 4_000); // line 4,001: a monitor the page does not have
    const result = await run(await fileOf('late.ndjson', ndjson(lines)));
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      'line 4001: monitor 99 does not exist on page "late"\n' +
        'rejected: 1 invalid events of 5000; lines up to 4000 are committed ' +
        `(appended 4000, duplicates 0, last position ${await lastPosition()}): run again with --resume 4000\n`,
    );
    expect(await count('late')).toBe(4_000);

    lines[4_000] = check('late', 3, 4_000); // fixed
    const fixed = await fileOf('late-fixed.ndjson', ndjson(lines));
    const resumed = await run(fixed, { resumeAfterLine: 4_000 });
    expect(resumed).toMatchObject({
      code: 0,
      out: `appended 1000, duplicates 0, last position ${await lastPosition()}\n`,
    });
    expect(await count('late')).toBe(5_000);
  });

  it('checks every line of a file before appending any', async () => {
    const lines: object[] = [page('shape'), ...Array.from({ length: 4_999 }, (_, i) => check('shape', 5, i))];
    const text = `${ndjson(lines)}{"type": "check.recorded"}\n`; // line 5,001: no page, no data
    const result = await run(await fileOf('shape.ndjson', text));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^line 5001: .+\nrejected: 1 invalid events of 5001; nothing appended\n$/);
    expect(await count('shape')).toBe(0);
  });

  it("reads standard input for '-'", async () => {
    const stdin = Readable.from([
      ndjson([page('piped')]),
      ndjson([monitor('piped', 4), check('piped', 4, 0)]),
    ]);
    const result = await run('-', { stdin });
    expect(result).toEqual({
      code: 0,
      out: `appended 3, duplicates 0, last position ${await lastPosition()}\n`,
      err: '',
      woken: [['piped']],
    });
  });

  it('says so when the file is missing or not a file', async () => {
    const missing = join(dir, 'nope.ndjson');
    expect(await run(missing)).toEqual({
      code: 2,
      out: '',
      err: `ingest: cannot read ${missing}: no such file\n`,
      woken: [],
    });
    expect(await run(dir)).toEqual({
      code: 2,
      out: '',
      err: `ingest: cannot read ${dir} is a directory\n`,
      woken: [],
    });
  });

  it('succeeds with a warning when the projectors cannot be woken', async () => {
    const result = await run(await fileOf('wake.ndjson', ndjson([page('wake')])), {
      wake: () => Promise.reject(new Error('redis is away')),
    });
    expect(result.code).toBe(0);
    expect(result.err).toBe(
      'ingest: warning: projectors not woken (redis is away); they catch up on their next poll\n',
    );
    expect(await count('wake')).toBe(1);
  });

  it('shows progress on a terminal only', async () => {
    async function* slowly() {
      yield ndjson([page('tty')]);
      await sleep(600);
      yield ndjson([monitor('tty', 5)]);
    }
    const result = await run('-', { stdin: Readable.from(slowly()), isTTY: true });
    expect(result.code).toBe(0);
    // The progress line ends by erasing itself (ESC [ K) so the summary starts on a clean line.
    // eslint-disable-next-line no-control-regex
    expect(result.err).toMatch(/^(\r1 events read…)+(\r2 events read…)*\r\x1b\[K$/);
  });
});
