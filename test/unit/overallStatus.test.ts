import { describe, expect, it } from 'vitest';
import { overallStatus, type StatusSource } from '../../projections/figures/overallStatus.ts';
import { translate } from '../../projections/locale/catalogues.ts';
import { statusWordKeys } from '../../projections/locale/statusWords.ts';
import { overallStatuses } from '../../src/shared/overallStatus.ts';

const m = (impact: StatusSource['impact'], lastStatus: StatusSource['lastStatus']): StatusSource => ({
  impact,
  lastStatus,
});

describe('overallStatus', () => {
  it('is operational when every monitor is up, or has no check yet', () => {
    expect(overallStatus([m('major', 'up'), m('partial', null)], false)).toBe('operational');
    expect(overallStatus([], false)).toBe('operational');
  });

  it('ignores monitors whose impact is none', () => {
    expect(overallStatus([m('none', 'down'), m('major', 'up')], false)).toBe('operational');
    expect(overallStatus([m('none', 'down')], false)).toBe('operational');
  });

  it('is major_outage when every counted monitor is down, whatever their impact', () => {
    expect(overallStatus([m('degraded', 'down'), m('partial', 'down'), m('none', 'up')], false)).toBe(
      'major_outage',
    );
  });

  it('maps a down monitor by its impact when others are up', () => {
    expect(overallStatus([m('major', 'down'), m('partial', 'up')], false)).toBe('major_outage');
    expect(overallStatus([m('partial', 'down'), m('partial', 'up')], false)).toBe('partial_outage');
    expect(overallStatus([m('degraded', 'down'), m('partial', 'up')], false)).toBe('degraded_performance');
  });

  it('counts a degraded monitor as degraded_performance and takes the worst contribution', () => {
    expect(overallStatus([m('major', 'degraded'), m('partial', 'up')], false)).toBe('degraded_performance');
    expect(overallStatus([m('major', 'degraded'), m('partial', 'down'), m('major', 'up')], false)).toBe(
      'partial_outage',
    );
  });

  it('is under_maintenance only when otherwise operational', () => {
    expect(overallStatus([m('partial', 'up')], true)).toBe('under_maintenance');
    expect(overallStatus([], true)).toBe('under_maintenance');
    expect(overallStatus([m('partial', 'degraded'), m('partial', 'up')], true)).toBe('degraded_performance');
    expect(overallStatus([m('partial', 'down')], true)).toBe('major_outage');
  });
});

describe('the words of the overall status', () => {
  it('names every status in every language, English as badges have always said it', () => {
    expect(overallStatuses.map((status) => translate('en').t(statusWordKeys[status]))).toEqual([
      'Operational',
      'Degraded Performance',
      'Partial Outage',
      'Major Outage',
      'Under Maintenance',
    ]);
  });
});
