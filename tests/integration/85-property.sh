# Property test through the real module: 200 random (policy, starting
# groups) cases through pamtester.  Each checks that the result is a
# subset of the start, that every restricting gid and the primary gid in
# the start stay, and that the same input gives the same output.

NAMES=(audio video plugdev users games-abusers gamers students alice bin)
GIDS=(29 44 46 100 2003 3000 1001 2 65534 4242)

pick() { # pick N WORD...: N random words, as a libconfig list body
	local n=$1 out=() w
	shift
	local words=("$@")
	for ((k = 0; k < n; k++)); do
		w=${words[RANDOM % ${#words[@]}]}
		[[ $w =~ ^[0-9]+$ ]] && out+=("$w") || out+=("\"$w\"")
	done
	local IFS=,
	echo "${out[*]}"
}

random_policy() {
	local rules=() r services users body
	for ((r = 0; r < 1 + RANDOM % 3; r++)); do
		services=$(pick $((1 + RANDOM % 2)) dgtest "*" sshd su)
		users=""
		((RANDOM % 3)) || users="users = ( $(pick 1 alice bob "%students" "%users" "*") );"
		case $((RANDOM % 5)) in
		0) body='drop = "*";' ;;
		1 | 2) body="drop = ( $(pick $((RANDOM % 5)) "${NAMES[@]}" "${GIDS[@]}") );" ;;
		*) body="keep = ( $(pick $((RANDOM % 4)) "${NAMES[@]}" "${GIDS[@]}") );" ;;
		esac
		rules+=("{ services = ( $services ); $users $body }")
	done
	local IFS=,
	cat <<-EOF
	version = 1;
	restricting = ( $(pick $((RANDOM % 3)) "${NAMES[@]}" "${GIDS[@]}") );
	rules = ( ${rules[*]} );
	EOF
}

random_start() {
	local g out=(1001)
	((RANDOM % 5)) || out=() # sometimes without the primary group
	for g in "${GIDS[@]}"; do
		((RANDOM % 3)) && out+=("$g")
	done
	[ ${#out[@]} -gt 0 ] || out=(100)
	local IFS=,
	echo "${out[*]}"
}

# The restricting gids of the policy in $POLICY, resolved as NSS does.
restricting_gids() {
	local w
	for w in $(sed -n 's/^restricting = ( \(.*\) );$/\1/p' "$POLICY" | tr -d '",'); do
		if [[ $w =~ ^[0-9]+$ ]]; then echo "$w"; else getent group "$w" | cut -d: -f3; fi
	done
}

test_property_random_policies_through_pamtester() {
	# 200 cases; fewer under the (slow) sanitizer build, which checks
	# memory safety, not the property
	local cases=${DG_PAM_PROPERTY_CASES:-200} changed=0 i first second g
	[ -z "${DG_SANITIZE:-}" ] || cases=${DG_PAM_PROPERTY_CASES:-40}
	RANDOM=${DG_PAM_PROPERTY_SEED:-4242}
	stack session success
	sed -i 's/^session \[success=1 default=bad\]/session optional/' "/etc/pam.d/$SERVICE"
	for ((i = 1; i <= cases; i++)); do
		random_policy | policy
		START=$(random_start)
		run_pam alice open_session > /dev/null
		first=$(groups_seen)
		run_pam alice open_session > /dev/null
		second=$(groups_seen)
		[ "$first" = "$second" ] ||
			fail "case $i: two runs differ: [$first] [$second]"
		for g in $first; do
			[ "$g" = 0 ] || [[ ",$START," == *",$g,"* ]] ||
				fail "case $i: gid $g was added (start $START): $(cat "$POLICY")"
		done
		for g in $(restricting_gids) 1001; do
			if [[ ",$START," == *",$g,"* ]] && [[ " $first " != *" $g "* ]]; then
				fail "case $i: gid $g dropped (start $START, got $first): $(cat "$POLICY")"
			fi
		done
		[ "$(sorted_with_root ${START//,/ })" = "$first" ] || changed=$((changed + 1))
	done
	echo "$cases cases, $changed of them dropped groups"
	# a generator whose policies never drop anything would prove nothing
	[ "$changed" -gt $((cases / 4)) ] || fail "only $changed cases dropped anything"
}
