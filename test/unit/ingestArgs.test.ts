import { describe, expect, it } from 'vitest';
import { parseIngestArgs } from '../../src/runtime/ingestCommand.ts';

describe('npm run ingest arguments', () => {
  it('takes a source, and a line to resume after', () => {
    expect(parseIngestArgs(['events.ndjson'])).toEqual({ source: 'events.ndjson', resumeAfterLine: 0 });
    expect(parseIngestArgs(['--resume', '4000', 'events.ndjson'])).toEqual({
      source: 'events.ndjson',
      resumeAfterLine: 4000,
    });
    expect(parseIngestArgs(['-'])).toEqual({ source: '-', resumeAfterLine: 0 });
  });

  it('refuses anything else', () => {
    expect(parseIngestArgs([])).toBeNull();
    expect(parseIngestArgs(['a.ndjson', 'b.ndjson'])).toBeNull();
    expect(parseIngestArgs(['--resume', 'x', 'a.ndjson'])).toBeNull();
    expect(parseIngestArgs(['--resume', '-1', 'a.ndjson'])).toBeNull();
    expect(parseIngestArgs(['--force', 'a.ndjson'])).toBeNull();
  });
});
