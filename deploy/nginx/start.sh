#!/bin/sh
# The nginx container's command (deploy/compose.yaml): writes /etc/nginx/conf.d/default.conf from the
# server block `sitegen build` generated (dist-deploy/nginx.conf, mounted under /srv/maskwise/dist-deploy)
# with its "set for your host" lines set for the compose file and a short connect timeout to the
# replicas, then runs nginx in the foreground.
# The generated block's other defaults already fit the container: listen 80 and 443, the root
# /srv/maskwise/dist, the access log /var/log/nginx/access.log. A line it cannot find stops the
# start with a message, so a changed generator is noticed instead of served half-configured.
set -eu

generated=/srv/maskwise/dist-deploy/nginx.conf
target=/etc/nginx/conf.d/default.conf
[ -f "$generated" ] || { echo "start.sh: no $generated; build the site first (npm run build)" >&2; exit 1; }
for file in fullchain.pem privkey.pem; do
  [ -f "/etc/nginx/tls/$file" ] || { echo "start.sh: no /etc/nginx/tls/$file; put the certificate chain and its key in deploy/tls/ (TLS_DIR)" >&2; exit 1; }
done

conf=$(cat "$generated")
set_line() { # set_line FROM TO: replaces the generated line FROM (after its indent) with TO
  case $conf in
    *"$1"*) ;;
    *) echo "start.sh: $generated has no line '$1' to set" >&2; exit 1 ;;
  esac
  conf=$(printf '%s\n' "$conf" | awk -v from="$1" -v to="$2" '{ i = index($0, from); if (i) $0 = substr($0, 1, i - 1) to substr($0, i + length(from)); print }')
}
set_line 'server 127.0.0.1:8787;' 'server ingest-a:8787; server ingest-b:8787;'
set_line 'ssl_certificate /etc/ssl/certs/maskwise.pem;' 'ssl_certificate /etc/nginx/tls/fullchain.pem;'
set_line 'ssl_certificate_key /etc/ssl/private/maskwise.key;' 'ssl_certificate_key /etc/nginx/tls/privkey.pem;'
# A replica stopped or killed leaves an address where nothing answers, not even a refusal: without a
# short connect timeout nginx would wait its default 60 s there before passing the request to the
# other replica. On this network a replica that is up connects in well under a millisecond.
set_line 'proxy_pass http://maskwise_ingest;' 'proxy_pass http://maskwise_ingest; proxy_connect_timeout 2s;'
printf '%s\n' "$conf" >"$target"

exec nginx -g 'daemon off;'
