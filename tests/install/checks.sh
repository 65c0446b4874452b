# Sourced by the install checks: counts checks and shows the output of those that fail.
passed=0 failed=0

# check NAME COMMAND...: runs COMMAND, counts it, shows its output when it fails.
check() {
    local name=$1 output
    shift
    if output=$("$@" 2>&1); then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s\n%s\n' "$name" "$output" | sed '2,$s/^/    /'
    fi
}

# same EXPECTED ACTUAL: equal strings, both shown otherwise.
same() {
    [[ $1 == "$2" ]] || { printf 'expected: %s\nactual:   %s\n' "$1" "$2"; return 1; }
}
