#!/bin/sh
# tests/debian/prerm-lines.sh: the prerm's module_lines against a made-up root: each PAM file libpam
# reads that names pam_dropgroups must be listed (else removal leaves a
# stack refusing logins).  Runs the prerm with /etc/pam.* and
# pam-auth-update replaced, so nothing of the host is read or written.
# Exit 1 lists each miss.  Usage: sh tests/attack/prerm-lines.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R/etc/pam.d/local" "$R/etc/security" "$R/usr/lib/pam.d"
sed "s#/etc/pam#$R/etc/pam#g; s#/usr/lib/pam#$R/usr/lib/pam#g; s#^\tpam-auth-update .*#\t:#" \
	"$top/debian/libpam-dropgroups.prerm" > "$R/prerm"
# "@include DIR/FILE" is read from /etc/pam.d/DIR/FILE, an absolute
# include from its path, and a service without /etc/pam.d/SERVICE from
# /usr/lib/pam.d/SERVICE (Debian 12's libpam has that vendor directory).
printf '@include common-auth\n@include local/dg\nsession include %s\n' \
	"$R/etc/security/dg-stack" > "$R/etc/pam.d/sshd"
echo 'session required pam_dropgroups.so' > "$R/etc/pam.d/local/dg"
echo 'session required pam_dropgroups.so' > "$R/etc/security/dg-stack"
echo 'session required pam_dropgroups.so' > "$R/usr/lib/pam.d/runuser"
sh "$R/prerm" remove > "$R/out" 2>&1
bad=0
for want in etc/pam.d/local/dg etc/security/dg-stack usr/lib/pam.d/runuser; do
	grep -q "$want:1:" "$R/out" || { echo "MISSED: $want"; bad=1; }
done
# false refusals: a name after '#' is a comment to libpam
rm -f "$R/etc/pam.d/local/dg" "$R/etc/security/dg-stack" "$R/usr/lib/pam.d/runuser"
printf 'session required pam_unix.so # was pam_dropgroups.so\n' > "$R/etc/pam.d/login"
if ! sh "$R/prerm" remove > "$R/out" 2>&1; then
	echo "REFUSED for a comment:"; cat "$R/out"; bad=1
fi
exit $bad
