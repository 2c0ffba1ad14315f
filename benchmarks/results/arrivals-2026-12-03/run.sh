#!/bin/bash
# run.sh COMMIT NAME... : dump each chat's facts as found by the parent of COMMIT
c=$1; shift; p=$(cd /work/main && git rev-parse --short $c^)
d=/tmp/arr/code-$p; [ -d $d ] || { mkdir -p $d; (cd /work/main && git archive $p | tar -x -C $d); }
files=""
for n in "$@"; do for s in conversations aliases; do f=/work/main/tests/data/$s/dev/$n.jsonl; [ -f $f ] && [ -f /work/main/tests/data/$s/dev/$n.facts.jsonl ] && files="$files $f"; done; done
[ -z "$files" ] && { echo "no facts for $*"; exit 0; }
cd $d && PYTHONPATH=$d python /tmp/arr/dump.py /tmp/arr/found-$(echo $@ | tr ' ' '_').jsonl $files && echo "ok $c $p $*"
