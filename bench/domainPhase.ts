// A page at its custom domain against the same page by slug: `GET /` with the domain in Host vs
// `GET /s/{slug}`, in alternating runs (slug, domain, domain, slug) so drift on a shared machine
// weighs on both alike. The ratio is what host routing costs; the target is ≥ 0.95.
import { httpLoad, warmUp, type LoadResult } from './httpLoad.ts';
import type { Figure } from './report.ts';

export type DomainPage = Readonly<{ host: string; slug: string }>;

const CONNECTIONS = 10;
const TARGET = 0.95;

const meanRps = (runs: readonly LoadResult[]): number => runs.reduce((n, r) => n + r.rps, 0) / runs.length;

export const domainPhase = async (
  app: string,
  page: DomainPage,
  options: { duration: number; log: (line: string) => void },
): Promise<Figure> => {
  const byDomain = { url: `${app}/`, headers: { host: page.host } };
  const bySlug = { url: `${app}/s/${page.slug}`, headers: {} };
  const run = async (target: typeof byDomain | typeof bySlug) => {
    const result = await httpLoad(target.url, {
      connections: CONNECTIONS,
      duration: options.duration,
      headers: target.headers,
    });
    if (result.ok !== result.requests || result.errors > 0)
      throw new Error(`GET ${target.url} (${JSON.stringify(target.headers)}): not every answer was 200`);
    return result;
  };
  await warmUp(byDomain.url, byDomain.headers);
  await warmUp(bySlug.url);
  const slugRuns = [await run(bySlug)];
  const domainRuns = [await run(byDomain), await run(byDomain)];
  slugRuns.push(await run(bySlug));
  const domain = meanRps(domainRuns);
  const slug = meanRps(slugRuns);
  options.log(`  GET / at ${page.host}: ${Math.round(domain)} req/s (by slug ${Math.round(slug)})`);
  return {
    section: 'http',
    name: `GET / at a custom domain (${page.host})`,
    unit: 'req/s',
    value: domain,
    baseline: { name: `GET /s/${page.slug}`, value: slug },
    ratio: domain / slug,
    target: { text: `≥ ${TARGET} × by slug`, met: domain >= TARGET * slug },
    detail: { p50_ms: domainRuns[0]!.p50, p99_ms: domainRuns[0]!.p99, runs_each: 2 },
  };
};
