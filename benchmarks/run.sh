#!/usr/bin/env bash
# Builds the JMH benchmarks and runs the whole suite, then prints the tables of docs/PERFORMANCE.md.
#
#   benchmarks/run.sh                        the full suite (about 30 minutes on 2 cores)
#   benchmarks/run.sh -wi 0 -i 1 -r 1s \
#     -jvmArgsAppend -Dtaskagent.bench.expectedClaimsPerSecond=2000
#                                            a smoke run: every benchmark once, briefly
#   benchmarks/run.sh 'DatabaseClaim' -p database=postgres
#                                            a part of it (any JMH options and benchmark regexps)
#
# Each benchmark class sets its own warmup and measurement (short iterations: forks are 1, the machine
# has 2 cores); options given here override them. Output, all under benchmarks/target/:
#   results.json  JMH's JSON        jmh.log  JMH's console output
#   machine.md    the machine       summary.md  the tables (also printed)
# PostgreSQL and MariaDB are reached through TASKAGENT_TEST_POSTGRES_URL / TASKAGENT_TEST_MARIADB_URL
# (defaults: the local test servers); each trial creates and drops its own bench_… schema or database.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -q -pl benchmarks -am package -DskipTests
target=benchmarks/target
jar=$target/benchmarks.jar

load_1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
if awk -v l="$load_1" 'BEGIN { exit !(l >= 1.0) }'; then
    echo "WARNING: the 1-minute load average is $load_1; figures measured on a busy machine are not representative." >&2
fi

java -cp "$jar" dev.taskagent.benchmarks.Machine | tee "$target/machine.md"

status=0
java -jar "$jar" -f 1 -rf json -rff "$target/results.json" "$@" 2>&1 | tee "$target/jmh.log" || status=$?
if grep -q '<failure>' "$target/jmh.log"; then
    echo "WARNING: some benchmarks failed; see $target/jmh.log (their figures show as missing)." >&2
    status=1
fi

java -cp "$jar" dev.taskagent.benchmarks.Summary "$target/results.json" | tee "$target/summary.md"
exit "$status"
