#!/bin/bash
# usage: run.sh tag case t_end [--set ...] ; env passes through
tag=$1; case=$2; tend=$3; shift 3
cd /work/helper-ida
rm -rf /tmp/ida/$tag
TB_IDA_TRACE=/tmp/ida/$tag.trace nice -n 5 build/tetherbench run cases/$case.toml --integrator ida --t-end $tend --out /tmp/ida/$tag "$@" > /tmp/ida/$tag.log 2>&1
python3 - "$tag" <<'PY'
import csv,sys
tag=sys.argv[1]
for r in csv.DictReader(open('/tmp/ida/%s/summary.csv'%tag)):
  print('%-28s steps %8s nni %8s etf %6s rt %8s dE %10s drift %10s C %10s Crate %10s orth %9s %s'%(tag,r['steps'],r['newton_iters'],r['error_test_failures'],r['runtime_s'],r['energy_err_max'],r['energy_drift_rate'],r['constraint_err_max'],r.get('constraint_rate_err_max',''),r['orthogonality_err_max'],r['status']))
PY
