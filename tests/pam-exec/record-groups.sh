#!/bin/sh
# Run by pam_exec after pam_dropgroups in a test stack: records the groups
# (id -G, sorted) and the no_new_privs flag that the process really has.
{
	id -G | tr ' ' '\n' | sort -n | tr '\n' ' '
	echo
	grep '^NoNewPrivs:' /proc/self/status
} > "$1"
