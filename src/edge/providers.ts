// One purge call per edge API, as each vendor documents it (docs/operations.md, "Edge caching").
import type { EdgeProvider, EdgeSettings } from './edgeSettings.ts';

export type PurgeTarget = Readonly<{
  provider: EdgeProvider;
  /** Keys one call may carry (the vendor's documented limit). */
  maxKeys: number;
  send: (keys: readonly string[], hard: boolean) => Promise<void>;
}>;

// Fastly: up to 256 surrogate keys per batch purge. Cloudflare: up to 100 tags per purge_cache call.
const FASTLY_MAX_KEYS = 256;
const CLOUDFLARE_MAX_TAGS = 100;
// Varnish: the keys go in one header; keep it well under Varnish's 8 KB header limit.
const VARNISH_MAX_KEYS = 100;
const TIMEOUT_MS = 5_000;

class PurgeFailed extends Error {
  override readonly name = 'PurgeFailed';
}

const call = async (url: string, init: RequestInit): Promise<Response> => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (res.status < 200 || res.status > 299) {
    const text = (await res.text().catch(() => '')).slice(0, 200);
    throw new PurgeFailed(`${init.method} ${new URL(url).pathname} answered ${res.status} ${text}`.trim());
  }
  return res;
};

/** `PURGE /` with `xkey-softpurge: <keys>` (hard: `xkey-purge`), which the shipped VCL hands to xkey. */
export const varnishTarget = (baseUrl: string): PurgeTarget => ({
  provider: 'varnish',
  maxKeys: VARNISH_MAX_KEYS,
  send: async (keys, hard) => {
    await (
      await call(`${baseUrl}/`, {
        method: 'PURGE',
        headers: { [hard ? 'xkey-purge' : 'xkey-softpurge']: keys.join(' ') },
      })
    ).text();
  },
});

/** POST /service/{id}/purge with the keys in `Surrogate-Key`, `Fastly-Key`, `Fastly-Soft-Purge: 1` unless hard. */
const fastlyTarget = (s: NonNullable<EdgeSettings['fastly']>): PurgeTarget => ({
  provider: 'fastly',
  maxKeys: FASTLY_MAX_KEYS,
  send: async (keys, hard) => {
    const url = `${s.apiUrl}/service/${encodeURIComponent(s.serviceId)}/purge`;
    const headers: Record<string, string> = {
      'Fastly-Key': s.token,
      'Surrogate-Key': keys.join(' '),
      Accept: 'application/json',
    };
    if (!hard) headers['Fastly-Soft-Purge'] = '1';
    await (await call(url, { method: 'POST', headers })).text();
  },
});

/** POST /zones/{zone}/purge_cache with `{"tags": [...]}` and a Bearer token; `success` must be true. Cloudflare has no soft purge. */
const cloudflareTarget = (s: NonNullable<EdgeSettings['cloudflare']>): PurgeTarget => ({
  provider: 'cloudflare',
  maxKeys: CLOUDFLARE_MAX_TAGS,
  send: async (keys) => {
    const url = `${s.apiUrl}/zones/${encodeURIComponent(s.zoneId)}/purge_cache`;
    const res = await call(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tags: keys }),
    });
    const body = (await res.json().catch(() => null)) as { success?: unknown } | null;
    if (body?.success !== true) throw new PurgeFailed(`cloudflare purge_cache did not report success`);
  },
});

/** Every target the settings name: one per Varnish instance, one per API. */
export const purgeTargets = (settings: EdgeSettings): PurgeTarget[] => [
  ...(settings.providers.includes('varnish') ? settings.varnishUrls.map(varnishTarget) : []),
  ...(settings.fastly ? [fastlyTarget(settings.fastly)] : []),
  ...(settings.cloudflare ? [cloudflareTarget(settings.cloudflare)] : []),
];
