#!/usr/bin/env bash
# Obtains a certificate for a page's custom domain with certbot (webroot of deploy/nginx.conf),
# after asking the service that the domain belongs to a live page.
# Usage: deploy/issue-certificate.sh status.acme.com [operator URL, default http://127.0.0.1:3001]
set -euo pipefail
domain="${1:?usage: $0 <domain> [operator-url]}"
operator="${2:-http://127.0.0.1:3001}"
if ! curl -fsS -o /dev/null "$operator/v1/domains/check?domain=$domain"; then
  echo "$domain is not the custom domain of a live page: no certificate requested" >&2
  exit 1
fi
certbot certonly --webroot -w /var/www/acme -d "$domain" --non-interactive --agree-tos --keep-until-expiring
echo "now add a server block for $domain (see deploy/nginx.conf) and run: nginx -s reload"
