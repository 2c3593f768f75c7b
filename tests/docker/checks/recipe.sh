# shellcheck shell=bash
# The production recipe, deploy/compose.yaml, started by lib/recipe.sh (sourced by
# tests/docker/run.sh): a signup posted through nginx is taken by one replica and its mail's link
# confirmed through the other, and a replica killed while signups stream in through nginx loses
# none that were answered 201.

https() { NODE_TLS_REJECT_UNAUTHORIZED=0 NODE_NO_WARNINGS=1 http "$@"; } # the test certificate is self-signed

newsletter_201() { # newsletter_201 URL: the replica's count of newsletter signups answered 201 (its /metrics)
  node -e '
    fetch(process.argv[1] + "/metrics", { signal: AbortSignal.timeout(5000) }).then((r) => r.text()).then((text) => {
      const line = text.split("\n").find((l) => l.startsWith("ingest_submissions_total{") && l.includes("form=\"newsletter\"") && l.includes("status=\"201\""));
      console.log(line ? Number(line.split(" ").pop()) : 0);
    }, () => console.log("unreachable"));
  ' "$1"
}

pg_query() { docker exec "$(service_id postgres)" psql -U ingest -d forms -Atc "$1"; }

confirm_token() { # confirm_token EMAIL: the token of the confirmation link in the mail the sink received for EMAIL ("" if none yet)
  docker exec "$(service_id mail-sink)" sh -c 'for f in /tmp/mail/*.eml; do [ -f "$f" ] && grep -qiF "$1" "$f" && cat "$f"; done; true' sh "$1" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      // The text may be quoted-printable (soft line breaks, =3D) or base64; look in both readings.
      const qp = s.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
      const b64 = (s.match(/^[A-Za-z0-9+\/=]{40,}$(?:\r?\n^[A-Za-z0-9+\/=]+$)*/gm) ?? []).map((b) => Buffer.from(b.replace(/\s/g, ""), "base64").toString("utf8"));
      const m = [qp, ...b64].join("\n").match(/newsletter\/confirm\?token=([A-Za-z0-9._~-]+)/);
      console.log(m ? m[1] : "");
    })'
}

check_recipe_signup_and_confirm() { # a signup through nginx on one replica, confirmed through the other
  local email body out a0 b0 a1 b1 taker other other_url token="" status t0
  email="recipe-$$-$(date +%s)@example.com"
  body=$(printf '{"name":"Ada Recipe","email":"%s","privacyConsent":true,"marketingConsent":false,"lang":"en"}' "$email")
  a0=$(newsletter_201 "$REPLICA_A") b0=$(newsletter_201 "$REPLICA_B")
  out=$(https POST "$SITE/api/newsletter" "$body")
  a1=$(newsletter_201 "$REPLICA_A") b1=$(newsletter_201 "$REPLICA_B")
  [[ "$a0 $b0 $a1 $b1" =~ ^[0-9]+\ [0-9]+\ [0-9]+\ [0-9]+$ ]] || { fail "a replica's /metrics did not answer ($a0 $b0 $a1 $b1)"; return; }
  if [[ $out == 201*confirm_email* ]]; then pass "POST /api/newsletter through nginx (HTTPS, the generated server block) answers 201"; else fail "POST /api/newsletter through nginx answered: $out"; fi
  if ((a1 == a0 + 1 && b1 == b0)); then taker=ingest-a other=ingest-b other_url=$REPLICA_B
  elif ((b1 == b0 + 1 && a1 == a0)); then taker=ingest-b other=ingest-a other_url=$REPLICA_A
  else fail "no single replica counted the signup (ingest-a $a0 → $a1, ingest-b $b0 → $b1)"; return; fi
  pass "nginx handed the signup to $taker (its ingest_submissions_total for newsletter 201 rose by one, $other's did not)"

  t0=$(now)
  for _ in $(seq 1 60); do
    token=$(confirm_token "$email")
    [[ -n $token ]] && break
    sleep 0.5
  done
  [[ -n $token ]] || { fail "no confirmation mail for the signup reached SMTP_URL (the mail sink) in 30 s"; return; }
  log "the confirmation mail reached the mail sink $(elapsed "$t0")s after the signup"
  out=$(http POST "$other_url/api/newsletter/confirm?token=$token" '{"lang":"en"}')
  status=$(pg_query "SELECT status FROM newsletter WHERE email_lower = '$email'")
  if [[ $out == 200* && $status == confirmed ]]; then
    pass "the confirmation mail went out through SMTP_URL, and its link confirmed the signup through $other (200; the row is confirmed in PostgreSQL)"
  else
    fail "confirming through $other answered: $out; the row's status: '$status'"
  fi
}

lines_201() { grep -c '^201 ' "$1" 2>/dev/null || true; }

wait_more_201() { # wait_more_201 FILE N SECONDS: until FILE holds N lines of 201 (false after SECONDS)
  local deadline=$(($(date +%s) + $3))
  while (($(lines_201 "$1") < $2)); do
    (($(date +%s) < deadline)) || return 1
    sleep 0.2
  done
}

check_recipe_replica_kill() { # a replica killed and started again while signups stream through nginx: no 201 row lost
  local results="$WORK/stream.txt" stop="$WORK/stream.stop" prefix="stream-$$" loader victim n t0 restarted acked stored missing others out
  : >"$results"
  # One visitor after another through nginx, each answer appended as "STATUS EMAIL" as it arrives.
  NODE_TLS_REJECT_UNAUTHORIZED=0 NODE_NO_WARNINGS=1 node -e '
    const fs = require("fs");
    const [site, prefix, results, stop] = process.argv.slice(1);
    (async () => {
      // Until the stop file appears, and two minutes at most should the proof have ended without it.
      for (let i = 1, end = Date.now() + 120000; !fs.existsSync(stop) && Date.now() < end; i += 1) {
        const email = `${prefix}-${i}@example.com`;
        const body = JSON.stringify({ name: "Stream", email, privacyConsent: true, marketingConsent: false, lang: "en" });
        let status;
        try {
          const r = await fetch(site + "/api/newsletter", { method: "POST", body, headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(15000) });
          status = r.status;
          await r.text();
        } catch (e) { status = "error:" + (e.cause?.code ?? e.name); }
        fs.appendFileSync(results, `${status} ${email}\n`);
      }
    })();
  ' "$SITE" "$prefix" "$results" "$stop" &
  loader=$!
  victim=$(service_id ingest-a)
  wait_more_201 "$results" 10 30 || fail "signups through nginx did not flow before the kill ($(lines_201 "$results") answered 201)"
  docker kill -s KILL "$victim" >/dev/null
  n=$(lines_201 "$results")
  log "killed ingest-a (SIGKILL) after $n signups answered 201"
  wait_more_201 "$results" $((n + 10)) 45 || fail "signups through nginx stopped while ingest-a was down ($(lines_201 "$results") answered 201)"
  t0=$(now)
  # A container killed through Docker counts as stopped by hand: its restart policy leaves it stopped.
  restarted="by its restart policy"
  [[ $(docker inspect --format '{{.State.Running}}' "$victim") == true ]] || { docker start "$victim" >/dev/null; restarted="with docker start"; }
  for _ in $(seq 1 120); do [[ $(http GET "$REPLICA_A/readyz") == 200* ]] && break; sleep 0.25; done
  log "ingest-a started again $restarted; /readyz 200 after $(elapsed "$t0")s"
  n=$(lines_201 "$results")
  wait_more_201 "$results" $((n + 10)) 30 || fail "signups through nginx did not flow after ingest-a's return"
  touch "$stop"
  wait "$loader" || true

  acked=$(awk '$1 == 201 { print $2 }' "$results" | sort)
  stored=$(pg_query "SELECT email_lower FROM newsletter WHERE email_lower LIKE '$prefix-%'" | sort)
  missing=$(comm -23 <(echo "$acked") <(echo "$stored") | grep -c . || true)
  others=$(awk '$1 != 201 { print $1 }' "$results" | sort | uniq -c | awk '{ printf "%s%s × %s", sep, $1, $2; sep = ", " }')
  if [[ $missing == 0 ]] && (($(grep -c . <<<"$acked") >= 30)); then
    pass "ingest-a killed (SIGKILL) and started again under a stream of signups through nginx: all $(grep -c . <<<"$acked") answered 201 are in PostgreSQL (other answers: ${others:-none})"
  else
    fail "after the kill of ingest-a, $missing of $(grep -c . <<<"$acked") signups answered 201 are missing from PostgreSQL (other answers: ${others:-none})"
  fi
  out=$(http POST "$REPLICA_A/api/newsletter" "$(printf '{"name":"Back","email":"%s-back@example.com","privacyConsent":true,"marketingConsent":false,"lang":"en"}' "$prefix")")
  if [[ $out == 201* ]]; then pass "the restarted ingest-a takes signups again (201)"; else fail "the restarted ingest-a answered: $out"; fi
}
