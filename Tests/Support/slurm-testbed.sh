#!/bin/bash
# A private single-node Slurm cluster on loopback: munged + slurmctld + slurmd, with their own
# configuration, key, sockets, state and logs under DIR (nothing in /etc or /var is used).
#
#   slurm-testbed.sh start DIR    start everything and wait (bounded) until the node is idle;
#                                 prints SLURM_CONF=DIR/slurm.conf (shell syntax, also in DIR/env)
#   slurm-testbed.sh stop DIR     stop exactly the processes started for DIR (bounded waits)
#
# Clients (sbatch, squeue, sinfo, scancel) use the bed with SLURM_CONF=DIR/slurm.conf; the
# configuration names the bed's own munge socket, so the machine's munged is never used.
# Needs (Debian): slurm-wlm munge (slurmctld, slurmd, munged; run as root).
set -euo pipefail

die() { echo "slurm-testbed: $*" >&2; exit 1; }

mode=${1:-}
dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || die "usage: $0 start|stop DIR"

# free_port, wait_port, alive
. "$(dirname "$0")/testbed-common.sh"

stop_bed() {
    local name pid
    # Jobs first (their steps are children of slurmstepd, which slurmd starts).
    if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ]; then
        SLURM_CONF="$dir/slurm.conf" timeout 5 scancel --quiet --user=root 2>/dev/null || true
    fi
    for name in slurmd slurmctld munged; do
        [ -f "$dir/$name.pid" ] || continue
        pid=$(cat "$dir/$name.pid" 2>/dev/null || true)
        [ -n "$pid" ] || continue
        # Only the process started for this bed: its command line names DIR.
        if alive "$pid" && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$dir"; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.05; done
            alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$dir/$name.pid"
    done
    # slurmstepd processes of this bed's jobs (their spool directory is under DIR).
    for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
        if tr '\0' ' ' < "/proc/$pid/environ" 2>/dev/null | grep -qF -- "SLURM_CONF=$dir/slurm.conf"; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    return 0
}

case "$mode" in
stop)
    stop_bed
    exit 0
    ;;
start)
    ;;
*)
    die "unknown mode $mode"
    ;;
esac

for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || die "$tool is not installed (Debian: slurm-wlm munge)"
done
export PATH="/usr/sbin:$PATH"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
trap 'status=$?; if [ $status -ne 0 ]; then stop_bed; fi' EXIT
mkdir -p "$dir/munge" "$dir/state" "$dir/spool/quire-node" "$dir/log"
chmod 0755 "$dir" "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"

# munge: a private key and socket.
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 0400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed" \
    --num-threads=2 || die "munged did not start: $(tail -3 "$dir/log/munged.log" 2>/dev/null)"
for _ in $(seq 1 100); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.05; done
[ -S "$dir/munge/munge.socket" ] || die "munged made no socket"

controller_port=$(free_port)
node_port=$(free_port)
while [ "$node_port" = "$controller_port" ]; do node_port=$(free_port); done
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) / 2 ))
host=$(hostname)

cat > "$dir/slurm.conf" <<EOF
ClusterName=quire-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$controller_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
LaunchParameters=use_interactive_step
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
MaxArraySize=1001
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=quire-node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=quire Nodes=quire-node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
# slurmd loads a cgroup plugin at start even when no cgroup plugin tracks jobs (proctrack and
# task plugins above do not use cgroups): let it detect the machine's hierarchy, mount nothing.
printf 'CgroupAutomount=no\n' > "$dir/cgroup.conf"

export SLURM_CONF="$dir/slurm.conf"
# -D: foreground (so the pid file names the daemon itself); -i: ignore state from a former run.
setsid slurmctld -D -i -f "$dir/slurm.conf" > "$dir/log/slurmctld.out" 2>&1 < /dev/null &
echo $! > "$dir/slurmctld.pid"
wait_port "$controller_port" 30 || die "slurmctld did not listen on 127.0.0.1:$controller_port: $(tail -5 "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null)"
setsid slurmd -D -N quire-node -f "$dir/slurm.conf" > "$dir/log/slurmd.out" 2>&1 < /dev/null &
echo $! > "$dir/slurmd.pid"
wait_port "$node_port" 30 || die "slurmd did not listen on 127.0.0.1:$node_port: $(tail -5 "$dir/log/slurmd.log" "$dir/log/slurmd.out" 2>/dev/null)"

# The node must be idle before jobs are accepted (bounded: 60 s).
state=""
for _ in $(seq 1 300); do
    state=$(sinfo --noheader --nodes=quire-node --format=%T 2>/dev/null | head -1 || true)
    case "$state" in idle*) break ;; esac
    sleep 0.2
done
case "$state" in idle*) ;; *) die "node not idle (state '${state}'): $(tail -5 "$dir/log/slurmd.log" "$dir/log/slurmctld.log" 2>/dev/null)" ;; esac

echo "SLURM_CONF=$dir/slurm.conf" | tee "$dir/env"
