# make install, the exported symbols, and the no-mutable-state rule.

test_make_install_puts_each_file_in_place() {
	skip_under_sanitizers "make install builds its own objects"
	local root=$T/root secdir
	secdir=$(pkg-config --variable=libdir pam)/security
	make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr > "$T/install.log" 2>&1 ||
		{ cat "$T/install.log"; fail "make install failed"; }
	for f in "$secdir/pam_dropgroups.so" /usr/sbin/dropgroups \
		/usr/share/man/man8/pam_dropgroups.8 /usr/share/man/man8/dropgroups.8 \
		/usr/share/man/man5/dropgroups.conf.5 /etc/security/dropgroups.conf \
		/usr/share/doc/pam_dropgroups/dropgroups.conf.example; do
		[ -f "$root$f" ] || fail "make install did not install $f"
		echo "installed $f"
	done
	[ -d "$root/etc/security/dropgroups.d" ] || fail "no drop-in directory"
	case $secdir in
	*/x86_64-linux-gnu/security) ;;
	*) [ "$(dpkg --print-architecture)" != amd64 ] || fail "PAM dir $secdir is not the multiarch one" ;;
	esac
}

test_make_install_never_overwrites_the_live_policy() {
	skip_under_sanitizers "make install builds its own objects"
	local root=$T/root
	mkdir -p "$root/etc/security"
	echo "# the admin's own" > "$root/etc/security/dropgroups.conf"
	make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr > /dev/null 2>&1
	grep -q "the admin's own" "$root/etc/security/dropgroups.conf" ||
		fail "make install replaced the admin's policy"
}

test_installed_module_loads_by_name() {
	skip_under_sanitizers "make install builds its own objects"
	# Put the installed module into (a copy of) the PAM directory and use
	# it by name, as an admin's pam.d line would.
	local root=$T/root secdir
	secdir=$(pkg-config --variable=libdir pam)/security
	make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr > /dev/null 2>&1
	mkdir "$T/secdir"
	cp -a "$secdir/." "$T/secdir/"
	cp "$root$secdir/pam_dropgroups.so" "$T/secdir/"
	mount --bind "$T/secdir" "$secdir"
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	MODULE=pam_dropgroups.so
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_module_exports_only_pam_sm_symbols() {
	local syms
	syms=$(nm -D --defined-only "$MODULE" | awk '{print $3}' | sort | xargs)
	[ "$syms" = "pam_sm_acct_mgmt pam_sm_authenticate pam_sm_close_session pam_sm_open_session pam_sm_setcred" ] ||
		fail "exported: $syms"
}

# The house rules of HACKING.md ("Where the code lives"), read from the
# objects and the sources, so that a newcomer can trust them.

# Every function a file of lib/, lint/ or audit/ exports is named
# dg_FILE...: a name says where it lives.  The module's file exports only
# the pam_sm_* entry points (above), the CLI's only main.
test_exported_names_start_with_their_file() {
	skip_under_sanitizers "ASan adds its own symbols"
	local o f bad=
	# (the objects `make all` builds: lib/ for the module, the CLI's in pie/)
	[ -f "$BUILD/pie/lint/ways.o" ] || fail "no CLI objects in $BUILD/pie"
	for o in "$BUILD"/lib/*.o "$BUILD"/pie/lint/*.o "$BUILD"/pie/audit/*.o; do
		f=$(basename "$o" .o)
		bad+=$(nm --defined-only -g "$o" |
			awk -v f="$f" '$2 ~ /^[TDBR]$/ &&
				$3 !~ ("^dg_" f "(_|$)") { printf " %s:%s", f, $3 }')
	done
	echo "exported under another file's name:${bad:- none}"
	[ -z "$bad" ] || fail "exported under another file's name:$bad"
}

# No circle between files: if a.c (or a.h) includes b.h, b's files do not
# come back to a, through any chain.  tsort(1) says when the "includes"
# pairs hold a loop.  (The sources of the build under test: $BUILD's
# tree, which make mutate's scratch copy changes.)
test_no_circle_between_source_files() {
	local pairs loop
	pairs=$(cd "$BUILD/../pam_dropgroups" && for f in */*.[ch]; do
		grep -o '^#include "[a-z_-]*\.h"' "$f" |
			sed "s|.*\"\(.*\)\.h\"|$(basename "${f%.?}") \1|"
	done | awk '$1 != $2 && $2 != "parser-id"')
	[ -n "$pairs" ] || fail "no includes read"
	loop=$(tsort <<< "$pairs" 2>&1 > /dev/null) || true
	echo "${loop:-no circle}"
	[ -z "$loop" ] || fail "a circle between files: $loop"
}

test_no_mutable_static_state() {
	skip_under_sanitizers "ASan adds its own data sections"
	# Writable data (.data, .bss) would be state shared between PAM
	# handles and threads.  Const tables of pointers live in
	# .data.rel.ro, read-only once relocated (RELRO), and are fine.  The
	# one exception is on purpose: apply.c's lock, which serialises the
	# read-decide-write of the process's groups between threads.
	local syms
	[ -f "$BUILD/lib/apply.o" ] || fail "no objects in $BUILD/lib"
	# the module's objects (lib/, module/), and the CLI's (built -fPIE,
	# in pie/): the CLI runs threads too (dropgroups audit)
	[ -f "$BUILD/pie/audit/audit.o" ] || fail "no CLI objects in $BUILD/pie"
	syms=$(for o in "$BUILD"/lib/*.o "$BUILD"/module/*.o "$BUILD"/pie/*/*.o; do
		# SYMBOL-TABLE lines: ... SECTION SIZE NAME
		objdump -t "$o" | awk -v o="$(basename "$o")" \
			'NF >= 5 && $(NF-2) ~ /^\.(data|bss)($|\.)/ &&
			 $(NF-2) !~ /rel\.ro/ && $NF !~ /^\./ { print o ":" $NF }'
	done | sort -u | xargs)
	echo "writable static data: ${syms:-none}"
	[ "$syms" = "apply.o:apply_lock" ] || fail "writable static data: $syms"
}
