#!/bin/sh
# docker-compose's `demo` profile, second step: publishes kafka-schemas/examples/<topic>.jsonl to <topic>, each line
# keyed by its cluster (as resource managers publish), with kafka-console-producer. A record that is sent again is a
# duplicate the server ignores (its eventId), so running it twice changes nothing.
# Settings: BOOTSTRAP_SERVERS, EXAMPLES (the examples directory), PRODUCER (the console producer command).
set -eu
bootstrap="${BOOTSTRAP_SERVERS:-kafka:9092}"
examples="${EXAMPLES:-/examples}"
producer="${PRODUCER:-/opt/kafka/bin/kafka-console-producer.sh}"
count=0
for file in "$examples"/*.jsonl; do
  topic=$(basename "$file" .jsonl)
  sed -n 's/^\(.*"cluster":"\([^"]*\)".*\)$/\2|\1/p' "$file" |
    $producer --bootstrap-server "$bootstrap" --topic "$topic" --property parse.key=true --property 'key.separator=|'
  lines=$(grep -c . "$file")
  count=$((count + lines))
  echo "demo: $lines event(s) to $topic"
done
echo "demo: $count example events published"
