// nginx with the configuration docs/deploy.md prints (deploy/nginx.conf, statuspage-proxy.conf and
// the proxy_cache snippet statuspage-cache.conf) in front of the service.
import { edgeSuite } from '../support/edgeSuite.ts';
import { startNginx } from '../support/nginx.ts';

// The snippet keeps an answer 5 s (proxy_cache_valid); past that, only proxy_cache_use_stale answers.
edgeSuite('nginx proxy_cache', startNginx, { expire: () => Promise.resolve(), watchMs: 8_000 });
