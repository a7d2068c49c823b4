#!/usr/bin/env bash
# Whole-command speed of xpgn beside its yardstick, pgn-reader and
# shakmaty, in the same run: validate (one core, then every core),
# import with every position indexed, dataset, and orthodox perft; and
# what two cores of the machine allow, two one-core runs at once.
#
#   benches/compare.sh [--rounds N] [--repeat K] [--peer-dir DIR] [FILE...]
#
# FILEs default to the real games of tests/data/lichess. validate and the
# yardstick read the files K times over in one run (default 5), so that
# a run lasts long enough to time; import and dataset read them once (a
# second reading would store nothing new). The yardstick
# (benches/peer/main.rs) is built in DIR (default: xpgn-peer under the
# temporary folder), outside this repository: pgn-reader and shakmaty are
# GPL and never a dependency of xpgn. Each job runs N times (default 5),
# xpgn and the yardstick alternating, and the medians of CPU seconds
# (user + system) and wall seconds are printed, and for validate and
# perft the yardstick's time over xpgn's round by round, and for each
# two-core job its speed-up over the one-core run of the same round (on
# a virtual machine whose speed drifts, the ratio of two runs made one
# after the other varies less than either time). xpgn is built with the
# `parquet` feature, for `dataset`. Needs cargo, GNU time
# (/usr/bin/time) and network access for the yardstick's crates the
# first time, and python3 to time each run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

rounds=5
repeat=5
peer_dir="${TMPDIR:-/tmp}/xpgn-peer"
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --peer-dir) peer_dir=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) files+=("$(realpath "$1")"); shift ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  files=("$repo"/tests/data/lichess/*.pgn)
fi
command -v python3 >/dev/null || { echo "compare.sh: python3 is needed to time the runs" >&2; exit 2; }
repeated=()
for _ in $(seq "$repeat"); do repeated+=("${files[@]}"); done

echo "building xpgn (release) and the yardstick in $peer_dir" >&2
cargo build --release --quiet --features parquet
xpgn="$repo/target/release/xpgn"
mkdir -p "$peer_dir"
cp benches/peer/main.rs "$peer_dir/main.rs"
cp benches/peer/Cargo.toml.peer "$peer_dir/Cargo.toml"
(cd "$peer_dir" && cargo build --release --quiet)
peer="$peer_dir/target/release/peer"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
times="$scratch/times"
mkdir "$times"

# The games each reads, as a check that both read the same files.
{ "$xpgn" validate --jobs 1 "${files[@]}" 2>/dev/null || true; } | tail -1 >&2
"$peer" "${files[@]}" >&2

# run NAME COMMAND...: one timed run, appended to $times/NAME as
# "cpu wall" seconds (the child's user + system time, and the wall time).
run() {
  local name=$1; shift
  python3 - "$@" >>"$times/$name" <<'PY'
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
# The child's own usage: RUSAGE_CHILDREN would also count whatever the
# interpreter ran before (on some machines its start-up runs programs).
_, _, use = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
print(f"{use.ru_utime + use.ru_stime:.4f} {wall:.4f}")
PY
}

# run_twice NAME COMMAND...: the command twice at once, appended to
# $times/NAME as "cpu wall" (both children's CPU, the wall time until both
# end): two one-core jobs that share nothing, whose speed-up over one
# alone is what the machine itself allows two cores.
run_twice() {
  local name=$1; shift
  python3 - "$@" >>"$times/$name" <<'PY'
import os, subprocess, sys, time
start = time.perf_counter()
children = [subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
cpu = 0.0
for child in children:
    _, _, use = os.wait4(child.pid, 0)
    cpu += use.ru_utime + use.ru_stime
print(f"{cpu:.4f} {time.perf_counter() - start:.4f}")
PY
}

# median FILE COLUMN
median() {
  sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.3f", m}'
}

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
for r in $(seq "$rounds"); do
  echo "round $r of $rounds" >&2
  run validate1 "$xpgn" validate --jobs 1 "${repeated[@]}"
  run peer "$peer" "${repeated[@]}"
  run validate2 "$xpgn" validate --jobs 2 "${repeated[@]}"
  run_twice validate1x2 "$xpgn" validate --jobs 1 "${repeated[@]}"
  rm -f "$scratch"/import.db*
  run import1 "$xpgn" import --jobs 1 --db "$scratch/import.db" "${files[@]}"
  rm -f "$scratch"/import2.db*
  run import2 "$xpgn" import --jobs 2 --db "$scratch/import2.db" "${files[@]}"
  rm -rf "$scratch/dataset1" "$scratch/dataset2"
  run dataset1 "$xpgn" dataset --jobs 1 --out "$scratch/dataset1" "${files[@]}"
  run dataset2 "$xpgn" dataset --jobs 2 --out "$scratch/dataset2" "${files[@]}"
  run perft6 "$xpgn" perft 6
  run peer_perft6 "$peer" --perft 6
  run kiwipete5 "$xpgn" perft --fen "$kiwipete" 5
  run peer_kiwipete5 "$peer" --perft 5 "$kiwipete"
done

games=$("$peer" "${files[@]}" | awk '{print $1}')
bytes=$(stat -c %s "$scratch/import.db")
printf '\n%s games in %s file(s), read %s times over by validate and the yardstick; medians of %s runs (CPU = user + system seconds)\n\n' "$games" "${#files[@]}" "$repeat" "$rounds"
# Games a second by CPU time and by wall time: an import also waits for
# its writes to reach the disk, which only the wall time shows.
printf '| job | CPU s | wall s | games/s (CPU) | games/s (wall) | yardstick CPU s | xpgn / yardstick speed |\n|---|---|---|---|---|---|---|\n'
row() { # NAME LABEL GAMES-READ [PEER]
  local cpu wall rate wall_rate
  cpu=$(median "$times/$1" 1); wall=$(median "$times/$1" 2)
  per() { awk -v t="$1" -v g="$2" 'BEGIN {if (g == "" || t <= 0) print "-"; else printf "%.0f", g / t}'; }
  rate=$(per "$cpu" "$3"); wall_rate=$(per "$wall" "$3")
  if [ -n "${4:-}" ]; then
    local pcpu; pcpu=$(median "$times/$4" 1)
    printf '| %s | %s | %s | %s | %s | %s | %.2fx |\n' "$2" "$cpu" "$wall" "$rate" "$wall_rate" "$pcpu" "$(awk -v a="$pcpu" -v b="$cpu" 'BEGIN {print a / b}')"
  else
    printf '| %s | %s | %s | %s | %s | | |\n' "$2" "$cpu" "$wall" "$rate" "$wall_rate"
  fi
}
read=$((games * repeat))
row validate1 "validate, one core" "$read" peer
row validate2 "validate, two cores" "$read"
row import1 "import, one core" "$games"
row import2 "import, two cores" "$games"
row dataset1 "dataset, one core" "$games"
row dataset2 "dataset, two cores" "$games"
row perft6 "perft 6 (start)" "" peer_perft6
row kiwipete5 "perft 5 (kiwipete)" "" peer_kiwipete5
printf '\nimport: %s bytes a game; two cores against one, by wall time: validate %.2fx, import %.2fx, dataset %.2fx\n' \
  "$(awk -v b="$bytes" -v g="$games" 'BEGIN {printf "%.0f", b / g}')" \
  "$(awk -v a="$(median "$times/validate1" 2)" -v b="$(median "$times/validate2" 2)" 'BEGIN {print a / b}')" \
  "$(awk -v a="$(median "$times/import1" 2)" -v b="$(median "$times/import2" 2)" 'BEGIN {print a / b}')" \
  "$(awk -v a="$(median "$times/dataset1" 2)" -v b="$(median "$times/dataset2" 2)" 'BEGIN {print a / b}')"

# paired NAME PEER: the yardstick's time over xpgn's, round by round (the
# two ran one after the other, so a machine whose speed drifts from run
# to run weighs on both alike): the median of the rounds' ratios and
# their range, by wall time and by CPU time.
paired() {
  paste -d' ' "$times/$1" "$times/$2" | awk '{w[NR] = $4 / $2; c[NR] = $3 / $1}
    function med(a, n,   i, j, t) {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) {t = a[i]; a[i] = a[j]; a[j] = t}
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
      n = NR; mw = med(w, n); mc = med(c, n)
      printf "%.2fx wall (rounds from %.2fx to %.2fx), ", mw, w[1], w[n]
      printf "%.2fx CPU (from %.2fx to %.2fx)", mc, c[1], c[n]
    }'
}
# speedup ONE TWO [WORK]: ONE's wall time over TWO's, times WORK (default
# 1), round by round: the median of the rounds' ratios and their range.
# A two-core run's speed-up against the one-core run of its own round,
# which the machine's drift moves less than a ratio of medians.
speedup() {
  paste -d' ' "$times/$1" "$times/$2" | awk -v k="${3:-1}" '{r[NR] = k * $2 / $4}
    END {
      for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (r[j] < r[i]) {t = r[i]; r[i] = r[j]; r[j] = t}
      m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
      printf "%.2fx (rounds from %.2fx to %.2fx)", m, r[1], r[NR]
    }'
}
printf 'two cores against one, round by round, by wall time: validate %s, import %s, dataset %s\n' \
  "$(speedup validate1 validate2)" "$(speedup import1 import2)" "$(speedup dataset1 dataset2)"
printf 'the machine itself: two one-core validate runs at once do %.2fx the work of one in the same time, %s round by round (about the most a two-core job can reach on it)\n' \
  "$(awk -v a="$(median "$times/validate1" 2)" -v b="$(median "$times/validate1x2" 2)" 'BEGIN {print 2 * a / b}')" \
  "$(speedup validate1 validate1x2 2)"
printf 'validate, one core, against the yardstick round by round: %s\n' "$(paired validate1 peer)"
printf 'perft 6 and kiwipete perft 5 against the yardstick round by round: %s; %s\n' \
  "$(paired perft6 peer_perft6)" "$(paired kiwipete5 peer_kiwipete5)"
