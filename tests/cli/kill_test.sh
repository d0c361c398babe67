#!/bin/bash
# Issue 14, item 6: an interrupted run keeps whole rows, the same bytes as an uninterrupted run.
#   kill_test.sh <clearsim> <model> <work folder> <run options...>
# One uninterrupted reference run, then the same run stopped by SIGINT, SIGTERM and SIGKILL once
# its file has a few hundred rows. Every run's file must be a prefix of the reference made of
# whole lines (after SIGKILL, a last row cut at a page boundary is allowed: see check_prefix);
# SIGINT and SIGTERM must stop at a step with exit code 128 + signal, saying where.
# A CSV has 3 lines before its rows: the version and units comments, the header.
set -u
head_lines=3
clearsim=$1 model=$2 work=$3
shift 3
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$clearsim" run "$model" -q -o "$work/reference.csv" "$@" || fail "the reference run failed"
total=$(wc -l < "$work/reference.csv")
echo "reference: $total lines"

# Starts a run, waits for $min_lines lines in its file, sends $1; leaves its exit code in $code.
run_and_signal() {
  local sig=$1 out=$work/$1.csv min_lines=300
  shift
  rm -f "$out"
  "$clearsim" run "$model" -q -o "$out" "$@" 2> "$work/$sig.err" &
  local pid=$!
  for _ in $(seq 1 600); do
    [ -f "$out" ] && [ "$(wc -l < "$out")" -ge $min_lines ] && break
    sleep 0.05
  done
  kill -s "$sig" $pid 2>/dev/null || fail "$sig: the run ended before the signal (make it longer)"
  wait $pid
  code=$?
  cat "$work/$sig.err"
}

# The file at $1 is whole lines (it ends with a newline) and a prefix of the reference. With $2 =
# "may_cut_at_page", its last row may be cut short, but only at a multiple of 4096 bytes: Linux
# ends a write at a page (folio) boundary when SIGKILL is pending, and a row may straddle one.
check_prefix() {
  local out=$1 lines size
  lines=$(wc -l < "$out")
  size=$(stat -c %s "$out")
  [ "$lines" -gt $head_lines ] || fail "$out: no rows kept"
  [ "$lines" -lt "$total" ] || fail "$out: as long as the reference: the signal came too late"
  cmp -s "$out" <(head -c "$size" "$work/reference.csv") ||
    fail "$out: its $size bytes differ from the reference's first $size"
  if [ "$(tail -c 1 "$out" | od -An -c | tr -d ' ')" != '\n' ]; then
    [ "${2:-}" = may_cut_at_page ] || fail "$out: the last row is torn"
    [ $((size % 4096)) -eq 0 ] || fail "$out: the last row is torn at byte $size, not at a page"
    echo "$out: $((lines - head_lines)) whole rows and a row cut at a page boundary ($size bytes)"
    return
  fi
  echo "$out: $((lines - head_lines)) whole rows, byte for byte the reference's"
}

for sig in INT TERM; do
  run_and_signal $sig "$@"
  expected=$((128 + $(kill -l $sig)))
  [ "$code" -eq "$expected" ] || fail "SIG$sig: exit code $code, expected $expected"
  grep -Eq "interrupted at t = [0-9.e+-]+ s, after step [0-9]+ by SIG$sig; results up to there are in .*$sig.csv \([0-9]+ whole rows\)" \
    "$work/$sig.err" || fail "SIG$sig: no message saying where the run stopped"
  rows=$(sed -E 's/.*\(([0-9]+) whole rows\).*/\1/;t;d' "$work/$sig.err")
  [ "$rows" -eq $(($(wc -l < "$work/$sig.csv") - head_lines)) ] || fail "SIG$sig: said $rows rows"
  check_prefix "$work/$sig.csv"
done

run_and_signal KILL "$@"
[ "$code" -eq 137 ] || fail "SIGKILL: exit code $code, expected 137"
check_prefix "$work/KILL.csv" may_cut_at_page
# A result whose last row was cut short is refused by clearsim's readers, naming the line (here
# the reference of an RMS objective, a copy of the reference without its last 5 bytes).
head -c -5 "$work/reference.csv" > "$work/cut.csv"
msg=$("$clearsim" gradient "$model" --end 0.001 --parameter bodies.slider.mass \
      --objective "rms(slider.position.x, $work/cut.csv)" 2>&1) && fail "a cut row was read"
echo "$msg" | grep -q "cut.csv:$total: error: the last row is cut short" ||
  fail "the message does not name the cut row: $msg"
echo "kill test passed"
