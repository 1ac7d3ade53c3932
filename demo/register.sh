#!/bin/sh
# docker-compose's `demo` profile, first step: registers the example clusters prod-yarn and prod-mesos and loads their
# ledger settings (demo/*-settings.json) over the admin API, as the realm's admin user alice. Run again, it changes
# nothing: a cluster that exists answers 409 and the same settings are put again.
# Settings: FAIRLEDGER_URL (the API), TOKEN_URL (Keycloak's token endpoint; empty: no token, for a standalone server
# trusting loopback callers), DEMO_DIR (this directory).
set -eu
api="${FAIRLEDGER_URL:-http://fairledger:8080}/api/v1/admin/clusters"
dir="${DEMO_DIR:-/demo}"
auth=""
if [ -n "${TOKEN_URL:-}" ]; then
  token=$(curl -fsS -d grant_type=password -d client_id=fairledger-cli -d username=alice -d password=alice-password \
    "$TOKEN_URL" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
  [ -n "$token" ] || { echo "demo: no access token from $TOKEN_URL" >&2; exit 1; }
  auth="Authorization: Bearer $token"
fi
body=$(mktemp)
for cluster in prod-yarn:YARN prod-mesos:MESOS; do
  id=${cluster%%:*}
  status=$(curl -sS -o "$body" -w '%{http_code}' -H "$auth" -H 'content-type: application/json' \
    -d "{\"id\":\"$id\",\"resourceManager\":\"${cluster##*:}\"}" "$api")
  case "$status" in
    201) echo "demo: registered $id" ;;
    409) echo "demo: $id was registered before" ;;
    *) echo "demo: registering $id answered $status: $(cat "$body")" >&2; exit 1 ;;
  esac
  status=$(curl -sS -o "$body" -w '%{http_code}' -X PUT -H "$auth" -H 'content-type: application/json' \
    --data-binary "@$dir/$id-settings.json" "$api/$id/ledger-settings")
  [ "$status" = 200 ] || { echo "demo: settings of $id answered $status: $(cat "$body")" >&2; exit 1; }
  echo "demo: ledger settings of $id loaded"
done
