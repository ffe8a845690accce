# Varnish 7 in front of the status page API (docs/deploy.md, "Varnish"). Needs varnish-modules
# for xkey and var (Debian: apt-get install varnish varnish-modules).
#
# What it does:
# - caches what the API marks cacheable for an edge (Surrogate-Control), for as long as it says,
#   tagged with its Surrogate-Key (copied into xkey), and passes everything else (private pages,
#   errors, any request with a page token: `Authorization` or `auth_token` in the query, which
#   reach the API as sent);
# - tells the API who the reader is: X-Forwarded-For is the client's address, replacing whatever
#   the client sent (the API believes it from Varnish: TRUST_PROXY);
# - accepts the API's purges (`PURGE /` with `xkey-softpurge: <keys>`, or `xkey-purge` for a hard
#   purge) only from the `purgers` ACL;
# - coalesces concurrent misses of one object into one backend fetch (Varnish's waiting list);
# - serves stale for 30 s while it refetches, and for a day while the API fails: when the health
#   probe on /healthz marks a stopped API sick (within about 3 s), and when the API answers 5xx
#   while its probe is healthy (Redis down: reads answer 503, /healthz 200): such a request is
#   looked up again with the whole grace (vcl_synth), and for 5 s after any failed fetch every
#   request is (vcl_recv, vcl_miss), so a herd is answered from grace at once instead of queueing
#   behind fetches that fail one after the other. A failed refresh never replaces a copy.
vcl 4.1;

import std;
import var;
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
    # The reader is the peer; an X-Forwarded-For or X-Forwarded-Host from the client is not believed.
    set req.http.X-Forwarded-For = client.ip;
    if (req.http.Host) {
        set req.http.X-Forwarded-Host = req.http.Host;
    } else {
        unset req.http.X-Forwarded-Host;
    }
    # Set by this VCL only, on the retry of a request the API failed (vcl_synth).
    if (req.restarts == 0) {
        unset req.http.sp-stale-if-error;
    }
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
    # A private page's answer depends on its token (the status page sends it as Authorization:
    # Bearer, links carry auth_token): never looked up, never stored, passed on with the token.
    if (req.http.Authorization || req.url ~ "(?i)[?&]auth(_|%5f)token=") {
        return (pass);
    }
    # Healthy API: stale for at most stale-while-revalidate (30 s) while one fetch refreshes it.
    # Sick API, a fetch failed in the last 5 s, or a retry after the API failed: everything grace
    # holds (stale-if-error, a day). Set both ways: a restart keeps what the first pass set.
    call sp_if_failing;
    if (std.healthy(req.backend_hint) && !req.http.sp-stale-if-error) {
        set req.grace = 30s;
    } else {
        set req.grace = 86400s;
    }
    # No cookie changes an answer of this API.
    unset req.http.Cookie;
    return (hash);
}

# A request that waited for a fetch that failed (Varnish's waiting list) is looked up again with the
# whole grace, instead of fetching in its turn: a herd never queues behind failing fetches.
sub vcl_miss {
    if (!req.http.sp-stale-if-error) {
        call sp_if_failing;
        if (req.http.sp-stale-if-error) {
            return (restart);
        }
    }
}

# Marks a request to be answered from the whole grace while the API failed a fetch in the last 5 s.
sub sp_if_failing {
    if (std.real(var.global_get("sp-failed-at"), 0.0) + 5.0 > std.time2real(now, 0.0)) {
        set req.http.sp-stale-if-error = "1";
    }
}

# A failed fetch of a cacheable answer is dropped, never delivered nor stored, unless it is the retry
# (vcl_synth): an error object would take the place of the stale copy the retry looks for.
sub vcl_backend_error {
    call sp_failed;
    if (bereq.is_bgfetch || (!bereq.uncacheable && !bereq.http.sp-stale-if-error)) {
        return (abandon);
    }
}

# While the API fails, a background refresh goes to it at most about once a second: the others end
# at once, so requests waiting for one (Varnish's waiting list) never wait long.
sub vcl_backend_fetch {
    if (bereq.is_bgfetch
        && std.real(var.global_get("sp-failed-at"), 0.0) + 1.0 > std.time2real(now, 0.0)) {
        return (abandon);
    }
}

# When the API last failed a fetch: for 5 s after it, requests take the whole grace (vcl_recv).
sub sp_failed {
    var.global_set("sp-failed-at", "" + std.time2real(now, 0.0));
}

sub vcl_backend_response {
    if (beresp.status >= 500) {
        call sp_failed;
        # A failed refresh keeps the stale object; a reader's failed fetch is retried (above).
        if (bereq.is_bgfetch || (!bereq.uncacheable && !bereq.http.sp-stale-if-error)) {
            return (abandon);
        }
        # The retry's answer, or a passed request's: delivered to this reader alone.
        set beresp.ttl = 0s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
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

# The API failed a cacheable request (it answered 5xx, or could not be reached; the fetch was
# abandoned) while its probe may still say healthy: look it up once more with the whole grace. A
# stale copy answers (and a background fetch tries again); without one, the API's own answer.
sub vcl_synth {
    if (resp.status == 503 && req.restarts == 0 && !req.http.sp-stale-if-error
        && (req.method == "GET" || req.method == "HEAD")) {
        set req.http.sp-stale-if-error = "1";
        return (restart);
    }
}

sub vcl_deliver {
    # Edge-only headers stop here; browsers get the API's own Cache-Control.
    unset resp.http.Surrogate-Control;
    unset resp.http.CDN-Cache-Control;
    unset resp.http.xkey;
}
