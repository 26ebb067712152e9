# Shared by the test beds (cups-testbed.sh, slurm-testbed.sh): sourced, not run.
# Loopback ports and daemon liveness, with bounded waits.

# A TCP port on 127.0.0.1 that nothing listens on (checked twice: a connect and ss).
free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$(( 20000 + RANDOM % 40000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            if ! ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then
                echo "$port"; return 0
            fi
        fi
    done
    die "no free port found"
}

# Waits until something accepts on 127.0.0.1:PORT, at most SECONDS.
wait_port() { # port seconds
    local i
    for i in $(seq 1 $(( $2 * 20 ))); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    return 1
}

# Alive and not a zombie (daemons are reparented to PID 1, which may reap them late).
alive() {
    local state
    state=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}
