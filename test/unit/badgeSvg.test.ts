import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../../src/embed/badgeSvg.ts';
import type { OverallStatus } from '../../src/shared/overallStatus.ts';

const parse = (svg: string) => {
  const window = new Window();
  return new window.DOMParser().parseFromString(svg, 'image/svg+xml');
};

const cases: [OverallStatus | 'unknown', string, string][] = [
  ['operational', 'Operational', '#4c1'],
  ['degraded_performance', 'Degraded Performance', '#dfb317'],
  ['partial_outage', 'Partial Outage', '#fe7d37'],
  ['major_outage', 'Major Outage', '#e05d44'],
  ['under_maintenance', 'Under Maintenance', '#007ec6'],
  ['unknown', 'Unknown', '#9f9f9f'],
];

describe('badgeSvg', () => {
  it.each(cases)('draws %s as "Status | %s" on %s', (status, message, colour) => {
    const doc = parse(badgeSvg(status));
    expect(doc.querySelector('parsererror')).toBeNull();
    const svg = doc.documentElement;
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe(`Status: ${message}`);
    expect(doc.querySelector('title')?.textContent).toBe(`Status: ${message}`);

    const rects = [...doc.querySelectorAll('g[clip-path] rect')];
    expect(rects[0]?.getAttribute('fill')).toBe('#555');
    expect(rects[1]?.getAttribute('fill')).toBe(colour);
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(['Status', 'Status', message, message]); // shadow + text per segment
  });

  it('sizes the badge to its text and keeps the segments adjacent', () => {
    const widthOf = (status: OverallStatus | 'unknown') =>
      Number(parse(badgeSvg(status)).documentElement.getAttribute('width'));
    expect(widthOf('degraded_performance')).toBeGreaterThan(widthOf('operational'));
    expect(widthOf('operational')).toBeGreaterThan(widthOf('unknown'));

    const doc = parse(badgeSvg('operational'));
    const [label, message] = [...doc.querySelectorAll('g[clip-path] rect')];
    const width = Number(doc.documentElement.getAttribute('width'));
    expect(Number(message?.getAttribute('x'))).toBe(Number(label?.getAttribute('width')));
    expect(Number(label?.getAttribute('width')) + Number(message?.getAttribute('width'))).toBe(width);
    expect(doc.querySelector('clipPath rect')?.getAttribute('rx')).toBe('3');
  });
});
