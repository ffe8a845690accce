// The edge purge settings of docs/operations.md ("Edge caching"): which edges to purge and how
// to reach them. Parsed with the other settings at start; a bad or incomplete set names the variable.
export type EdgeProvider = 'varnish' | 'fastly' | 'cloudflare';

export type EdgeSettings = Readonly<{
  providers: readonly EdgeProvider[];
  varnishUrls: readonly string[];
  fastly: Readonly<{ serviceId: string; token: string; apiUrl: string }> | null;
  cloudflare: Readonly<{ zoneId: string; token: string; apiUrl: string }> | null;
}>;

const FASTLY_API_URL = 'https://api.fastly.com';
const CLOUDFLARE_API_URL = 'https://api.cloudflare.com/client/v4';

type Env = Readonly<Record<string, string | undefined>>;
const PROVIDERS: readonly EdgeProvider[] = ['varnish', 'fastly', 'cloudflare'];

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The settings, or the issues (`VARIABLE: message`) that stop the process. */
export const parseEdgeSettings = (env: Env): { settings: EdgeSettings } | { issues: string[] } => {
  const issues: string[] = [];
  const need = (name: string, provider: EdgeProvider): string => {
    const value = env[name]?.trim() ?? '';
    if (value === '') issues.push(`${name}: required when EDGE_PURGE includes ${provider}`);
    return value;
  };
  const url = (name: string, fallback: string): string => {
    const value = env[name]?.trim() || fallback;
    if (!isHttpUrl(value)) issues.push(`${name}: "${value}" is not an http(s) URL`);
    return trimSlash(value);
  };
  const listed = (env['EDGE_PURGE'] ?? 'off')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const providers: EdgeProvider[] = [];
  for (const name of listed) {
    if (name === 'off' && listed.length === 1) continue;
    const provider = PROVIDERS.find((p) => p === name);
    if (provider === undefined)
      issues.push(`EDGE_PURGE: "${name}" is not off, varnish, fastly or cloudflare`);
    else if (!providers.includes(provider)) providers.push(provider);
  }
  let varnishUrls: string[] = [];
  if (providers.includes('varnish')) {
    varnishUrls = need('EDGE_VARNISH_URLS', 'varnish')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    for (const bad of varnishUrls.filter((u) => !isHttpUrl(u)))
      issues.push(`EDGE_VARNISH_URLS: "${bad}" is not an http(s) URL`);
    varnishUrls = varnishUrls.map(trimSlash);
  }
  const fastly = providers.includes('fastly')
    ? {
        serviceId: need('FASTLY_SERVICE_ID', 'fastly'),
        token: need('FASTLY_API_TOKEN', 'fastly'),
        apiUrl: url('FASTLY_API_URL', FASTLY_API_URL),
      }
    : null;
  const cloudflare = providers.includes('cloudflare')
    ? {
        zoneId: need('CLOUDFLARE_ZONE_ID', 'cloudflare'),
        token: need('CLOUDFLARE_API_TOKEN', 'cloudflare'),
        apiUrl: url('CLOUDFLARE_API_URL', CLOUDFLARE_API_URL),
      }
    : null;
  if (issues.length > 0) return { issues };
  return { settings: { providers, varnishUrls, fastly, cloudflare } };
};
