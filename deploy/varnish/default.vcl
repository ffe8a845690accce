# Varnish 7 in front of the status page API (docs/deploy.md, "Varnish"). Needs varnish-modules
# for xkey (Debian: apt-get install varnish varnish-modules).
#
# What it does:
# - caches what the API marks cacheable for an edge (Surrogate-Control), for as long as it says,
#   tagged with its Surrogate-Key (copied into xkey), and passes everything else (private pages,
#   errors, anything with a token in the query);
# - accepts the API's purges (`PURGE /` with `xkey-softpurge: <keys>`, or `xkey-purge` for a hard
#   purge) only from the `purgers` ACL;
# - coalesces concurrent misses of one object into one backend fetch (Varnish's waiting list);
# - serves stale for 30 s while it refetches, and for a day while the API is down: the health
#   probe on /healthz marks a stopped API sick within about 3 s, and then grace applies.
vcl 4.1;

import std;
import xkey;

# The API's public listener (PORT). docker-compose's `edge` profile names it `api`.
backend default {
    .host = "api";
    .port = "3000";
    .probe = {
        .url = "/healthz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
    }
}

# Who may purge: the projector's hosts (npm run work / npm start). Keep it to your own network.
acl purgers {
    "127.0.0.1";
    "::1";
    "10.0.0.0"/8;
    "172.16.0.0"/12;
    "192.168.0.0"/16;
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (req.http.xkey-softpurge) {
            set req.http.n-gone = xkey.softpurge(req.http.xkey-softpurge);
        } elsif (req.http.xkey-purge) {
            set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        } else {
            return (synth(400, "xkey-softpurge or xkey-purge required"));
        }
        return (synth(200, "Invalidated " + req.http.n-gone + " objects"));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # A private page's answer depends on its token: never looked up, never stored.
    if (req.url ~ "[?&]auth_token=") {
        return (pass);
    }
    # Healthy API: stale for at most stale-while-revalidate (30 s) while one fetch refreshes it.
    # Sick API: everything grace holds (stale-if-error, a day).
    if (std.healthy(req.backend_hint)) {
        set req.grace = 30s;
    }
    # No cookie or Authorization changes an answer of this API.
    unset req.http.Cookie;
    unset req.http.Authorization;
    return (hash);
}

sub vcl_backend_response {
    # A failed refresh keeps the stale object instead of replacing it.
    if (beresp.status >= 500 && bereq.is_bgfetch) {
        return (abandon);
    }
    # Varnish 7.1 honours neither Surrogate-Control nor stale-if-error, and its built-in rules
    # would drop the `no-store` (for browsers) answers: read the edge lifetime here.
    if (beresp.http.Surrogate-Control ~ "(^|[ ,])max-age=[0-9]+") {
        set beresp.ttl = std.duration(
            regsub(beresp.http.Surrogate-Control, "^(.*[ ,])?max-age=([0-9]+).*$", "\2") + "s", 0s);
        set beresp.grace = 86400s;
        set beresp.keep = 0s;
        if (beresp.http.Surrogate-Key) {
            set beresp.http.xkey = beresp.http.Surrogate-Key;
        }
        unset beresp.http.Set-Cookie;
        return (deliver);
    }
    # Everything else (private pages, errors, probes) is passed: remembered only as uncacheable
    # for a few seconds, so a page that turns public is cached again soon.
    set beresp.ttl = 5s;
    set beresp.grace = 0s;
    set beresp.uncacheable = true;
    return (deliver);
}

sub vcl_deliver {
    # Edge-only headers stop here; browsers get the API's own Cache-Control.
    unset resp.http.Surrogate-Control;
    unset resp.http.CDN-Cache-Control;
    unset resp.http.xkey;
}
