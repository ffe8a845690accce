// Varnish with the shipped VCL (deploy/varnish/default.vcl) in front of the service.
import { edgeSuite } from '../support/edgeSuite.ts';
import { startVarnish } from '../support/varnish.ts';

// A soft purge makes the copy stale, as the end of its lifetime would. Watched for longer than the
// 30 s of stale-while-revalidate the VCL allows a healthy backend: an origin that answers 5xx while
// its probe is healthy (Redis down) must still get the day of stale-if-error.
edgeSuite('Varnish', startVarnish, {
  expire: async (proxy) => {
    const res = await fetch(`${proxy.url}/`, { method: 'PURGE', headers: { 'xkey-softpurge': 'page-acme' } });
    if (res.status !== 200) throw new Error(`soft purge answered ${res.status}`);
  },
  watchMs: 35_000,
});
