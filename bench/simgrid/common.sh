# Shared by bench/simgrid/validate.sh and bench/simgrid/peers.sh (sourced, not run).
# Needs TAC3MAP and SMPIRUN set by the caller.

# SMPI as a plain flow-level max-min network (docs/validation.md): CM02 without its TCP
# cross-traffic, no SMPI bandwidth/latency factors, eager (detached) sends up to 64 KiB and
# rendezvous above, so the 256 KiB and 1 MiB messages here are rendezvous as tac3map assumes.
# Blocking sends below this many bytes are detached in the simulation (the sender goes on at
# once); tac3map is told the same with --eager-limit where traces have small blocking sends.
SMPI_EAGER_LIMIT=65536
SMPI_CFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0
          --cfg=smpi/bw-factor:1 --cfg=smpi/lat-factor:1
          --cfg=smpi/async-small-thresh:0 --cfg=smpi/send-is-detached-thresh:$SMPI_EAGER_LIMIT
          --cfg=smpi/host-speed:1e9
          # quiet, except the replay's closing line, stamped with the clock to 1e-12 s
          # (its own "Simulation time" has only microseconds)
          --log=root.thres:warning --log=smpi_replay.thres:info
          '--log=smpi_replay.fmt:clock=%.12r%e%m%n')

# A CG trace with a barrier after every exchange: `gen cg --barriers` when tac3map has it,
# else a barrier line after each rank's sendrecv.
cg_trace() {  # ranks barriers(0|1) file
  if [ "$2" = 1 ] && "$TAC3MAP" gen cg --help 2>/dev/null | grep -q -- '--barriers'; then
    "$TAC3MAP" gen cg --ranks "$1" --bytes 1048576 --variant sendrecv --barriers -o "$3"
  elif [ "$2" = 1 ]; then
    "$TAC3MAP" gen cg --ranks "$1" --bytes 1048576 --variant sendrecv |
      awk '{ print } $2 == "sendrecv" { print $1 " barrier" }' > "$3"
  else
    "$TAC3MAP" gen cg --ranks "$1" --bytes 1048576 --variant sendrecv -o "$3"
  fi
}

# The 4x4x4 periodic 7-point halo exchange with Isends (64 ranks, 256 KiB per message); with
# barriers: `gen stencil --barriers` when tac3map has it, else a barrier line after each
# rank's waitall.
stencil_trace() {  # barriers(0|1) file
  local gen=("$TAC3MAP" gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 --variant isend)
  if [ "$1" = 1 ] && "$TAC3MAP" gen stencil --help 2>/dev/null | grep -q -- '--barriers'; then
    "${gen[@]}" --barriers -o "$2"
  elif [ "$1" = 1 ]; then
    "${gen[@]}" | awk '{ print } $2 == "waitall" { print $1 " barrier" }' > "$2"
  else
    "${gen[@]}" -o "$2"
  fi
}

# Replays the TI trace INDEX (its rank files beside it) on PLATFORM with HOSTS (one line per
# rank) and prints the simulated seconds; SMPI's output goes to LOG. Runs smpirun in the
# index's folder: SMPI opens the rank files relative to its working folder.
simulate() {  # platform.xml hosts.txt trace.ti log
  local ranks simulated
  ranks=$(wc -l < "$2")
  (cd "$(dirname "$3")" && "$SMPIRUN" -platform "$1" -hostfile "$2" -np "$ranks" \
     -replay "$(basename "$3")" "${SMPI_CFG[@]}") > "$4" 2>&1 ||
    { echo "smpirun failed, see $4" >&2; return 1; }
  simulated=$(sed -n 's/^clock=\([0-9.e+-]*\) Simulation time.*/\1/p' "$4" | tail -1)
  [ -n "$simulated" ] || { echo "no simulation time in $4" >&2; return 1; }
  echo "$simulated"
}

# SMPI's barrier (its default selector: Open MPI's basic linear, every rank to rank 0 and back)
# told to tac3map, whose flow model charges each barrier its messages' latencies by the
# algorithm --collectives names (dissemination by default): the words to add to a tac3map
# command, none for a binary that does not know `barrier=linear`.
smpi_barrier_flags() {
  local probe
  probe=$(mktemp)
  printf 'tac3map-trace 1\nranks 2\n0 send 1 8\n1 recv 0 8\n0 barrier\n1 barrier\n' > "$probe"
  if "$TAC3MAP" ccs --trace "$probe" --collectives barrier=linear >/dev/null 2>&1; then
    echo "--collectives barrier=linear"
  fi
  rm -f "$probe"
}

# The `tac3map platform` flags of a run into the array platform_flags: --engines unless
# "default", --ranks-per-node unless 1.
set_platform_flags() {  # engines k
  platform_flags=()
  [ "$1" != default ] && platform_flags+=(--engines "$1")
  [ "$2" != 1 ] && platform_flags+=(--ranks-per-node "$2")
  return 0
}

# One hop of the platform as a ping-pong profile: message_latency (the start-up every route
# pays once, 0 if the machine file has none) + hop_latency + bytes / link_bandwidth, what a
# ping-pong between neighbours measures on the platform `tac3map platform` writes; memcpy and
# barrier_seconds come from the profile $2. usage: write_platform_profile MACHINE PROFILE OUT
write_platform_profile() {
  "${PYTHON:-python3}" - "$1" "$2" "$3" <<'EOF'
import json, sys
machine, profile = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
lat = machine.get("message_latency", 0) + machine["hop_latency"]
bw = machine["link_bandwidth"]
sizes = [8] + [1 << k for k in range(10, 25, 2)]
json.dump({"name": "platform",
           "description": f"one hop of the simulated platform: {lat} s + bytes / {bw} B/s",
           "pingpong": [{"bytes": b, "seconds": lat + b / bw} for b in sizes],
           "memcpy": profile["memcpy"], "barrier_seconds": profile["barrier_seconds"]},
          open(sys.argv[3], "w"), indent=1)
EOF
}
