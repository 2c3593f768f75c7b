# Stand-ins for the public images deploy/compose.yaml names, `postgres:15` and `nginx:1.30`: no
# registry of images is reachable here, so the container proof builds them (`--target postgres`,
# `--target nginx`) on its local Debian stand-ins (lib/standin-image.sh), from Debian's packages.
# lib/recipe.sh passes the versions the compose file names and prints what each stand-in holds.
#
#   postgres  Debian 12 (bookworm) and its PostgreSQL 15, the last Debian release that has 15.
#   nginx     Debian 13 (trixie), the official nginx image's base, and Debian's nginx of the line
#             the tag names (NGINX_LINE): from trixie when it has that line, else from Debian
#             testing (forky), which carries the current stable line while trixie keeps 1.26.
#             Only nginx and what it needs newer (nginx-common, libpcre2) come from testing. When
#             no Debian suite has the line, the stand-in carries trixie's nginx and the proof says
#             that it is a stand-in of another version.
ARG POSTGRES_SUITE=bookworm
ARG NGINX_SUITE=trixie

# The official postgres image's contract, as far as the recipe uses it: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB create the role and the database on the first start into an
# empty /var/lib/postgresql/data (postgres-entrypoint.sh), password (scram) logins from any
# address, pg_isready on PATH, and the server as PID 1 under the user postgres.
FROM debian:${POSTGRES_SUITE}-slim AS postgres
ARG POSTGRES_MAJOR=15
ENV DEBIAN_FRONTEND=noninteractive
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/no-main-cluster.conf \
 && apt-get update \
 && apt-get install -y --no-install-recommends "postgresql-$POSTGRES_MAJOR" \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/${POSTGRES_MAJOR}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data \
    LANG=C.UTF-8
RUN mkdir -p "$PGDATA" /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql \
 && chmod 0700 "$PGDATA"
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER postgres
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]

# The official nginx image's layout, as far as the recipe relies on it: /etc/nginx/nginx.conf
# includes mime.types and /etc/nginx/conf.d/*.conf inside http {}, no other site is enabled, the
# logs under /var/log/nginx (linked to the container's output unless a folder is mounted there),
# curl for the health check, and `nginx -g 'daemon off;'` as the command.
# Debian testing's Release file carries a Valid-Until a week ahead (a guard against a mirror
# replaying old indexes); this machine's copy of the mirror refreshes testing less often than
# that, so the stand-in's build does not check it for testing alone.
FROM debian:${NGINX_SUITE}-slim AS nginx
ARG NGINX_LINE=1.30
ENV DEBIAN_FRONTEND=noninteractive
RUN echo 'deb [check-valid-until=no] http://deb.debian.org/debian forky main' >/etc/apt/sources.list.d/testing.list \
 && printf 'Package: *\nPin: release n=forky\nPin-Priority: 100\n' >/etc/apt/preferences.d/testing \
 && apt-get update \
 && suite=$(apt-cache madison nginx | awk -v line="$NGINX_LINE." 'index($3, line) == 1 { split($6, s, "/"); print s[1]; exit }') \
 && apt-get install -y --no-install-recommends curl "nginx${suite:+/$suite}" \
 && rm -rf /var/lib/apt/lists/* /etc/apt/sources.list.d/testing.list /etc/apt/preferences.d/testing \
 && rm -f /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
