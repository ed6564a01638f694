# SPDX-License-Identifier: BSD-2-Clause
#
# The build caches of the test artefacts (sourced by tests/linux/build.sh,
# tests/linux/build-rv32.sh, tests/kvm/build.sh, tests/dt, tests/trace/fuzz.sh
# and tests/trace/nexrv-xcheck.sh): every step is keyed by a hash of its
# inputs, and skipped when its stamp, $stamps/.stamp-<step>, holds the same
# key.  The sourcing script sets $stamps to its build dir.

# sha256 (shortened) of the given strings and files, in order.
hash_inputs() {
	local item
	for item in "$@"; do
		if [[ -f $item ]]; then
			printf 'file %s\n' "$(basename "$item")"
			cat "$item"
		else
			printf 'text %s\n' "$item"
		fi
	done | sha256sum | cut -c1-16
}

stamp_ok() { [[ -f ${stamps:?}/.stamp-$1 && $(cat "$stamps/.stamp-$1") == "$2" ]]; }
stamp_set() { printf '%s\n' "$2" > "${stamps:?}/.stamp-$1"; }

# build_kept <step> <key> <file>... -- <command...>: runs the command unless
# the stamp of <step> holds <key> and every file it makes is there, and
# stamps it when the command succeeds; $kept is then
# " (kept: built from the same sources)" or "".  Fails if the command does.
build_kept() {
	local step=$1 key=$2 made=1
	shift 2
	while [[ $1 != -- ]]; do
		[[ -e $1 ]] || made=0
		shift
	done
	shift
	kept=""
	if ((made)) && stamp_ok "$step" "$key"; then
		kept=" (kept: built from the same sources)"
		return 0
	fi
	rm -f "$stamps/.stamp-$step"
	"$@" || return 1
	stamp_set "$step" "$key"
}
