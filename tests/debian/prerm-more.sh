#!/bin/sh
# tests/debian/prerm-more.sh: more of the prerm's module_lines on a made-up root
# (stacks libpam reads that an earlier prerm did not name).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bad=0
fresh() {
	R=$(mktemp -d)
	mkdir -p "$R/etc/pam.d" "$R/etc/security" "$R/usr/lib/pam.d" "$R/srv/pam"
	sed "s#/etc/pam#$R/etc/pam#g; s#/usr/lib/pam#$R/usr/lib/pam#g; s#^\tpam-auth-update .*#\t:#" \
		"$top/debian/libpam-dropgroups.prerm" > "$R/prerm"
}
want_refused() { # NAME: the prerm must refuse, naming the line
	if sh "$R/prerm" remove > "$R/out" 2>&1; then
		echo "MISSED ($1): removal went through"; sed 's/^/  /' "$R/out"; bad=1
	fi
	rm -rf "$R"
}
# 1. /etc/pam.d/sshd a symlink (config management): find -type f skips it
fresh
echo 'session required pam_dropgroups.so' > "$R/srv/pam/sshd"
ln -s "$R/srv/pam/sshd" "$R/etc/pam.d/sshd"
want_refused "symlinked stack"
# 2. "@include local/dg" with /etc/pam.d/local a symlinked directory
fresh
echo '@include local/dg' > "$R/etc/pam.d/login"
echo 'session required pam_dropgroups.so' > "$R/srv/pam/dg"
ln -s "$R/srv/pam" "$R/etc/pam.d/local"
want_refused "symlinked subdirectory"
# 3. a file whose name "read" cannot give back (trailing blank): awk
# cannot open it, set -e ends module_lines there, and every file listed
# after it is never read
fresh
for i in 1 2 3 4 5 6 7 8; do : > "$R/etc/pam.d/odd$i "; done
echo 'session required pam_dropgroups.so' > "$R/etc/pam.d/runuser"
for i in 1 2 3 4 5 6 7 8; do : > "$R/etc/pam.d/odd2$i "; done
want_refused "file name with a trailing blank"
# 4. libpam reads the type and control case-insensitively
fresh
printf 'Session Include %s\n' "$R/etc/security/dg-stack" > "$R/etc/pam.d/sshd"
echo 'session required pam_dropgroups.so' > "$R/etc/security/dg-stack"
want_refused "Session Include"
# 5. a line continued with a backslash: the module name on the next line
# is found (awk reads it as its own line), so this one should hold
fresh
printf 'session required \\\n  pam_dropgroups.so\n' > "$R/etc/pam.d/su"
want_refused "continued line"
exit $bad
