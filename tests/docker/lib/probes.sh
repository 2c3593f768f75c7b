# shellcheck shell=bash
# How the checks look at the running service (sourced by tests/docker/run.sh): HTTP requests from
# the host to BASE, and what the container NAME holds (exported rows, the captcha secret).

# http METHOD URL [JSON]: prints "STATUS BODY" (node, as the host may have no curl).
http() {
  node -e '
    const [method, url, body] = process.argv.slice(1);
    const init = { method, signal: AbortSignal.timeout(5000) };
    if (body) { init.body = body; init.headers = { "content-type": "application/json" }; }
    fetch(url, init).then(async (r) => console.log(r.status, (await r.text()).slice(0, 300)),
      (e) => { console.log(0, String(e.cause?.code ?? e.message)); });
  ' "$@"
}

wait_healthz() { # wait_healthz SECONDS: until /healthz answers 200
  local deadline=$(($(date +%s) + $1)) out
  while (($(date +%s) < deadline)); do
    out=$(http GET "$BASE/healthz")
    [[ $out == 200* ]] && return 0
    [[ $(docker inspect --format '{{.State.Running}}' "$NAME") == true ]] || return 1
    sleep 0.5
  done
  return 1
}

newsletter_lines() { # newsletter_lines: reads `ingest export --email` JSON on stdin, prints its newsletter rows as JSON lines
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    let person; try { person = JSON.parse(s); } catch { console.log(s); return; }
    for (const row of person.newsletter) console.log(JSON.stringify(row)); })'
}

export_rows() { # export_rows CONTAINER EMAIL...: the newsletter rows held for each address (pending or confirmed), through `ingest export --email`
  local container=$1 email
  shift
  for email in "$@"; do docker exec "$container" node ingest/bin.js export --email "$email" 2>/dev/null | newsletter_lines; done
}

secret_sum() { # secret_sum: the sha256 of the generated captcha secret in /data (empty if none)
  docker exec "$NAME" sh -c 'sha256sum /data/captcha-secret 2>/dev/null | cut -c1-64'
}
