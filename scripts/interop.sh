#!/usr/bin/env bash
# Interoperability of tp with the reference implementation of TaskPack 0.1
# (task-passport 0.3.0, JavaScript, run with node) and with the Library of
# Congress bagit-python. Results and how to read them: INTEROP.md.
#
#   scripts/interop.sh setup    check the two implementations named by the environment:
#                                 TP_REFERENCE_DIR  a task-passport 0.3.0 checkout (cli.js)
#                                 TP_BAGIT_PY       bagit.py to run with python3, or
#                                 TP_BAGIT_SRC      a bagit-python source checkout: a runner
#                                                   is made for it in a temporary folder
#                               nothing goes into the repository
#   scripts/interop.sh refgen [DIR]
#                               drive the reference to write the packs in
#                               pack/testdata/refgen (or DIR); reproducible byte for byte
#   scripts/interop.sh bagit    write tp packs of many shapes with the tp command line,
#                               unzip them and run `bagit.py --validate` on each
#   scripts/interop.sh test     go test the interop tests (they skip what is missing)
#   scripts/interop.sh          setup, bagit, test
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REF=${TP_REFERENCE_DIR:-}
BAGIT_PY=${TP_BAGIT_PY:-}

setup_ref() {
  if [ -z "$REF" ] || [ ! -f "$REF/cli.js" ]; then
    echo "interop: set TP_REFERENCE_DIR to a task-passport 0.3.0 checkout (git clone https://github.com/dongsheng123132/task-passport)" >&2
    return 1
  fi
  echo "reference: $REF ($(node "$REF/cli.js" --version))"
}

setup_bagit() {
  if [ -z "$BAGIT_PY" ] && [ -n "${TP_BAGIT_SRC:-}" ]; then
    # bagit-python reads its version from package metadata; a source checkout has
    # none, so give it some, and a four-line runner (nothing is installed).
    local run; run=$(mktemp -d)
    mkdir -p "$run/meta/bagit-0.0.dev0.dist-info"
    printf 'Metadata-Version: 2.1\nName: bagit\nVersion: 1.9.0.dev0\n' >"$run/meta/bagit-0.0.dev0.dist-info/METADATA"
    cat >"$run/bagit.py" <<PY
import sys
sys.path[0:1] = ["$run/meta", "$TP_BAGIT_SRC/src"]
import bagit
sys.exit(bagit.main())
PY
    BAGIT_PY=$run/bagit.py
  fi
  if [ -z "$BAGIT_PY" ] && command -v bagit.py >/dev/null 2>&1; then
    BAGIT_PY=$(command -v bagit.py)
  fi
  if [ -z "$BAGIT_PY" ] || [ ! -f "$BAGIT_PY" ]; then
    echo "interop: set TP_BAGIT_PY to bagit.py (pip install bagit), or TP_BAGIT_SRC to a bagit-python checkout" >&2
    return 1
  fi
  echo "bagit-python: $BAGIT_PY ($(python3 "$BAGIT_PY" --version 2>&1))"
}

setup() { setup_ref; setup_bagit; }

# refgen drives the reference's own command line (new state via checkpoint,
# then pack / pack --flat) with its host name and clock fixed by preload.cjs.
refgen() {
  local out=${1:-$ROOT/pack/testdata/refgen}
  out=$(cd "$out" && pwd)
  local work; work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  export TZ=UTC REFGEN_HOST=ref-studio REFGEN_NOW=2026-09-03T14:20:00Z
  export NODE_OPTIONS="--require $ROOT/pack/testdata/refgen/preload.cjs"
  local store=$work/store in=$work/in
  mkdir -p "$store" "$in"
  ref() { (cd "$in" && node "$REF/cli.js" "$@" --store "$store"); }
  # state FILE VERSIONS: save a state object (version 0 → N by N checkpoints)
  state() {
    local file=$1 n=$2 v=0
    while [ "$v" -lt "$n" ]; do ref checkpoint --file "$file" --expected-version "$v" >/dev/null; v=$((v + 1)); done
  }
  pack2() { # pack2 CASE ID ARGS...: both encodings
    local name=$1 id=$2; shift 2
    ref pack "$id" --out "$out/$name.taskpack" "$@" >/dev/null
    ref pack "$id" --out "$out/$name.taskpack.json" --flat "$@" >/dev/null
  }

  # --- luggage inputs ------------------------------------------------------
  printf '# Outline\n\n1. Revenue by region\n2. Hiring plan\n' >"$in/brief.md"
  mkdir -p "$in/figures" "$in/project/src/deep/er" "$in/tagnames"
  printf 'region,revenue\nEMEA,1200\nAPAC,900\n' >"$in/figures/revenue.csv"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\n' >"$in/figures/logo.svg"
  node -e 'const b=Buffer.alloc(4096);for(let i=0;i<b.length;i++)b[i]=(i*131+7+(i>>8))&255;process.stdout.write(b)' >"$in/weights.bin"
  node -e 'process.stdout.write(Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452","hex"),Buffer.from([0,0,0,1,0,0,0,1,8,6,0,0,0,0x1f,0x15,0xc4,0x89])]))' >"$in/image.png"
  printf 'bell \001 and escape \033[31m red\n' >"$in/ctrl.txt"
  printf '\357\273\277text with a byte order mark\n' >"$in/bom.txt"
  printf 'line one\r\nline two\r\n' >"$in/crlf.txt"
  printf 'no newline at the end' >"$in/no-newline.txt"
  printf '中文报告\n' >"$in/报告.md"
  printf 'a,b\n1,2\n' >"$in/数据（草稿）.csv"
  printf 'space in the name\n' >"$in/my notes.txt"
  printf 'accent\n' >"$in/café.txt"
  printf '# project\n' >"$in/project/README.md"
  printf 'package main\n\nfunc main() {}\n' >"$in/project/src/main.go"
  printf 'deep\n' >"$in/project/src/deep/er/x.txt"
  : >"$in/project/empty.txt"
  printf 'BagIt-Version: 0.97\n' >"$in/tagnames/bagit.txt"
  printf '0000000000000000000000000000000000000000000000000000000000000000  data/nothing\n' >"$in/tagnames/manifest-sha256.txt"
  printf '{"spec": "not the pack object"}\n' >"$in/tagnames/passport.json"
  node -e 'let s="";for(let i=0;s.length<1572864;i++)s+=`${String(i).padStart(7,"0")} the quarterly export log line\n`;process.stdout.write(s)' >"$in/big.log"
  printf '[{"id":"q-budget","to":"cfo","what":"Confirm the Q4 budget line","accept":"a number in EUR and who approved it","why":"slide 7","x_extra":"dropped by the reference"}]\n' >"$in/asks.json"
  printf '[{"id":"c-fonts","check":"the Inter font is installed","how":"fc-list | grep Inter","required":false}]\n' >"$in/checks.json"

  # --- facts: every scope, verified or not; three checkpoints (version 3) ---
  cat >"$in/facts.json" <<'JSON'
{"spec":"2origin/0.1","kind":"task.origin","id":"TP-RGEN-FACT","title":"Board deck Q3","goal":"A 12-slide deck the CFO signs off","version":0,"current_state":"Slides 1-8 drafted.","facts":[
 {"claim":"The CFO wants 12 slides","scope":"universal","verified":true,"source":"email 2026-09-01"},
 {"claim":"Decks use the 2026 brand template","scope":"org","verified":true,"source":"brand wiki"},
 {"claim":"Keynote 14.2 is installed","scope":"machine","verified":true},
 {"claim":"the export script runs","verified":true},
 {"claim":"port 8080 is free","scope":"machine","verified":false},
 {"claim":"the customer prefers PDF","scope":"universal","verified":false},
 {"claim":"node 20 is on PATH","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"old-laptop"},
 {"claim":"the template lives on the team drive","scope":"org","verified":true,"needs_reverify":true}
],"decisions":[{"what":"12 slides","why":"CFO asked"}],"artifacts":["brief.md"],"next_steps":["Draft slides 9-12"]}
JSON
  state "$in/facts.json" 3
  pack2 facts TP-RGEN-FACT --actor Maria --note "Slides 9-12 are yours" --file brief.md \
    --ask "Send the September close by region|A CSV with EMEA, APAC and AMER revenue|slide 2" \
    --ask "Which template version?|file name and version number of the template|brand check" \
    --asks asks.json --check "Keynote opens the template|open -a Keynote template.key" --checks checks.json

  simple() { # simple ID TITLE: a plain state at version 1
    printf '{"spec":"2origin/0.1","kind":"task.origin","id":"%s","title":"%s","goal":"Carry the luggage","version":0,"current_state":"ready","facts":[{"claim":"the files are final","scope":"universal","verified":true}],"next_steps":["Read the luggage"]}\n' "$1" "$2" >"$in/$1.json"
    state "$in/$1.json" 1
  }
  simple TP-RGEN-B2NY "Binary luggage"
  pack2 luggage-binary TP-RGEN-B2NY --actor Maria --file weights.bin --file image.png --file ctrl.txt --file bom.txt --file crlf.txt --file no-newline.txt
  simple TP-RGEN-UN2C "Unicode names 报告"
  pack2 luggage-unicode TP-RGEN-UN2C --actor 张老师 --file 报告.md --file "数据（草稿）.csv" --file "my notes.txt" --file café.txt
  simple TP-RGEN-F2LD "Folders"
  pack2 luggage-folders TP-RGEN-F2LD --actor Maria --file project --file figures
  simple TP-RGEN-TAGS "Tag-file names as luggage"
  pack2 luggage-tagnames TP-RGEN-TAGS --actor Maria --file tagnames
  simple TP-RGEN-EMTY "Nothing but the passport"
  pack2 empty TP-RGEN-EMTY --actor Maria
  simple TP-RGEN-8BIG "A large log"
  ref pack TP-RGEN-8BIG --actor Maria --file big.log --out "$out/large.taskpack" >/dev/null
  if ref pack TP-RGEN-8BIG --actor Maria --file big.log --out "$work/large.taskpack.json" --flat >/dev/null 2>&1; then
    echo "interop: the reference wrote a flat pack over 1 MiB; README.md says it refuses" >&2; return 1
  fi

  # --- a receipt: answered, open and dropped asks, a sealed fact, a check ---
  cat >"$in/receipt.json" <<'JSON'
{"spec":"2origin/0.1","kind":"task.origin","id":"TP-RGEN-RCPT","title":"Board deck Q3 (answers)","goal":"Answer the deck's asks","version":0,"current_state":"Answered a1.","facts":[{"claim":"the close CSV came from the ERP export","scope":"universal","verified":true},{"claim":"the ERP export runs here","scope":"machine","verified":true}],"next_steps":["Send the receipt"]}
JSON
  state "$in/receipt.json" 2
  printf '[{"id":"a1","what":"Send the September close by region","accept":"A CSV with EMEA, APAC and AMER revenue","why":"slide 2","status":"answered","answer":"close.csv attached","answered_by":"bob@laptop","answered_at":"2026-09-03T12:00:00Z"},{"id":"a2","what":"Which template version?","accept":"file name and version number of the template","status":"dropped","answer":null},{"id":"b1","to":"peer","what":"May slide 7 show last year too?","accept":"yes or no, and who decided","why":"comparison","status":"open"}]\n' >"$in/receipt-asks.json"
  printf 'region,revenue\nEMEA,1200\nAPAC,900\nAMER,1500\n' >"$in/close.csv"
  pack2 receipt TP-RGEN-RCPT --kind receipt --actor bob --note "answers for the deck" --file close.csv --asks receipt-asks.json \
    --check "the CSV opens in Numbers|open close.csv"

  # --- D1 edge cases: numbers, integer-like keys, control characters,
  #     a lone surrogate, emoji, bidi, unknown fields, non-object facts ---
  cat >"$in/edge.json" <<'JSON'
{"spec":"2origin/0.1","kind":"task.origin","id":"TP-RGEN-EDGE","title":"Edge cases \u00e9\u4e2d\ud83d\ude80","goal":"Survive every round trip","version":0,
 "current_state":"tab\there, bell \u0007, nul \u0000, escape \u001b[0m, del \u007f, lone \ud800 surrogate, bidi \u202e, line\u2028sep","x_metrics":{"b":1,"10":"ten","2":"two","a":[1e21,1e-7,-0,0.1,0.30000000000000004,123456789012345680000,5e-324,1.7976931348623157e308,-1.5e-10,100]},
 "x_nested":{"empty_obj":{},"empty_arr":[],"null":null,"bools":[true,false]},
 "facts":["a loose string fact",null,{"claim":"unknown fields survive","scope":"universal","verified":true,"x_weight":0.5}],
 "next_steps":[]}
JSON
  state "$in/edge.json" 1
  pack2 edge TP-RGEN-EDGE --actor "Ünïcødé 演员" --note "note with \"quotes\" and \\backslash"

  (cd "$out" && sha256sum ./*.taskpack ./*.taskpack.json | sed 's| \./| |' >SHA256SUMS)
  echo "refgen: wrote $(ls "$out"/*.taskpack* | wc -l) packs into $out"
}

# bagit writes tp packs with the tp command line, unzips each and runs bagit.py.
bagit() {
  local work; work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  go build -o "$work/tp" ./cmd/tp
  export TP_STORE=$work/store TP_MACHINE=box-a TP_ACTOR=alice
  local tp=$work/tp in=$work/in bags=$work/bags fail=0
  mkdir -p "$in/folder/sub/deeper" "$bags"
  printf 'hello\n' >"$in/plain.txt"
  printf 'x\n' >"$in/folder/a.txt"; printf 'y\n' >"$in/folder/sub/b.txt"; printf 'z\n' >"$in/folder/sub/deeper/c.txt"
  printf 'ü\n' >"$in/résumé café.txt"; printf '中\n' >"$in/报告 草稿.md"; printf 'p\n' >"$in/100% done.txt"
  head -c 65536 /dev/urandom >"$in/random.bin"; : >"$in/empty.txt"
  printf 'BagIt-Version: 0.97\n' >"$in/bagit.txt"; printf 'nothing\n' >"$in/manifest-sha256.txt"
  local id; id=$("$tp" new --title "Interop: bagit" --goal "validate" --json | sed -n 's/^  "passport_id": "\(.*\)",$/\1/p')
  shape() { local name=$1; shift; "$tp" pack "$id" --out "$bags/$name.taskpack" "$@" 2>/dev/null >/dev/null || { echo "FAIL $name: tp pack refused"; fail=1; }; }
  shape no-luggage
  shape nested --file "$in/folder"
  shape unicode-names --file "$in/résumé café.txt" --file "$in/报告 草稿.md"
  shape percent-name --file "$in/100% done.txt"
  shape binary --file "$in/random.bin"
  shape empty-file --file "$in/empty.txt"
  shape tag-named --file "$in/bagit.txt" --file "$in/manifest-sha256.txt"
  shape asks-checks --ask "Send the close|a CSV with three regions|slide 2" --check "Keynote opens|open -a Keynote"
  shape receipt --receipt --file "$in/plain.txt"
  "$tp" pack "$id" --out "$work/flat.taskpack.json" --flat --file "$in/folder" --file "$in/random.bin" >/dev/null 2>&1
  "$tp" convert "$work/flat.taskpack.json" --out "$bags/flat-converted.taskpack" >/dev/null
  for f in "$ROOT"/pack/testdata/ref/*.taskpack.json "$ROOT"/pack/testdata/refgen/*.taskpack.json; do
    [ -f "$f" ] || continue
    "$tp" convert "$f" --out "$bags/ref-$(basename "$f" .taskpack.json).taskpack" >/dev/null
  done
  for b in "$bags"/*.taskpack; do
    local d=$work/unzipped/$(basename "$b" .taskpack)
    mkdir -p "$d" && (cd "$d" && unzip -q "$b")
    if python3 "$BAGIT_PY" --validate "$d" >"$d.log" 2>&1; then
      echo "valid   $(basename "$b")"
    else
      echo "INVALID $(basename "$b"): $(grep -v ' - INFO - ' "$d.log" | tail -3 | tr '\n' ' ')"; fail=1
    fi
  done
  return $fail
}

gotest() {
  export TP_REFERENCE_DIR=$REF TP_BAGIT_PY=$BAGIT_PY
  go test -count=1 -run 'Interop' ./pack/ ./internal/store/
  go test -count=1 -run 'TestScripts/interop' ./cmd/cli/
}

case ${1:-all} in
  setup) setup ;;
  refgen) setup_ref >/dev/null; refgen "${2:-}" ;;
  bagit) setup_bagit >/dev/null; bagit ;;
  test) gotest ;;
  all) setup; bagit; gotest ;;
  *) sed -n '2,16p' "$0"; exit 1 ;;
esac
