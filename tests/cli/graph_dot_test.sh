#!/bin/bash
# graph_dot_test.sh BINARY SCENARIO DOT [RED BLUE]: `check --graph DOT`
# writes a DOT file with one node per distinct state and one edge per
# transition, as many as the search line of the same run reports; with RED
# and BLUE, that many edges are drawn red (the counterexample's path, or a
# lasso's stem) and blue (a lasso's loop).
set -u
bin=$1 scenario=$2 dot=$3 want_red=${4:-} want_blue=${5:-}
rm -f "$dot"
out=$("$bin" check "$scenario" --no-time --traces never --graph "$dot") || {
  echo "check exited $?"; exit 1; }
[ -s "$dot" ] || { echo "no file at $dot"; exit 1; }
head -1 "$dot" | grep -q '^digraph G {$' || { echo "not a DOT digraph"; exit 1; }
[ "$(tail -1 "$dot")" = "}" ] || { echo "the graph is not closed"; exit 1; }
states=$(echo "$out" | sed -nE 's/.*complete: ([0-9]+) distinct states, ([0-9]+) transitions.*/\1/p')
transitions=$(echo "$out" | sed -nE 's/.*complete: ([0-9]+) distinct states, ([0-9]+) transitions.*/\2/p')
[ -n "$states" ] || { echo "no search line in: $out"; exit 1; }
nodes=$(grep -cE '^[0-9]+\[label=' "$dot")
edges=$(grep -cE '^[0-9]+->[0-9]+ ' "$dot")
if [ "$nodes" != "$states" ] || [ "$edges" != "$transitions" ]; then
  echo "DOT has $nodes nodes and $edges edges; the search found $states states and $transitions transitions"
  exit 1
fi
# The initial state is drawn, and every edge joins two drawn nodes.
grep -q '^0\[label="#0' "$dot" || { echo "no initial state"; exit 1; }
bad=$(awk -F'[][ ]' '/^[0-9]+\[label=/{n[$1]=1} /^[0-9]+->[0-9]+ /{split($1,a,"->"); e[a[1]]=1; e[a[2]]=1}
  END{for (k in e) if (!(k in n)) print k}' "$dot" | head -1)
[ -z "$bad" ] || { echo "an edge names node $bad, which is not drawn"; exit 1; }
if [ -n "$want_red" ]; then
  red=$(grep -c 'color=red' "$dot")
  blue=$(grep -c 'color=blue' "$dot")
  if [ "$red" != "$want_red" ] || [ "$blue" != "$want_blue" ]; then
    echo "$red red and $blue blue edges; expected $want_red and $want_blue"
    exit 1
  fi
fi
echo "ok: $nodes nodes, $edges edges"
