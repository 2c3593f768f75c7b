# Stand-ins for the public images deploy/compose.yaml names, `postgres:15` and `nginx:1.22`: no
# registry is reachable here, so the container proof builds them (`--target postgres`, `--target
# nginx`) on its local Debian stand-in, from Debian 12's PostgreSQL 15 and nginx 1.22. Both
# targets share one apt layer (both servers in each image; what each runs is its own), so the
# packages are downloaded and unpacked once.
FROM debian:bookworm-slim AS packages
ENV DEBIAN_FRONTEND=noninteractive
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/no-main-cluster.conf \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 nginx curl \
 && rm -rf /var/lib/apt/lists/*

# The official postgres image's contract, as far as the recipe uses it: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB create the role and the database on the first start into an
# empty /var/lib/postgresql/data (postgres-entrypoint.sh), password (scram) logins from any
# address, pg_isready on PATH, and the server as PID 1 under the user postgres.
FROM packages AS postgres
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
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
FROM packages AS nginx
RUN rm -f /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
