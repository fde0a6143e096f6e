# dropgroups check, lint and explain --json (dropgroups(8), JSON OUTPUT):
# one document on stdout and nothing else, the exit status of the text
# form, and the same facts as the text, which each test rebuilds from
# the document and compares with the text form's own output.  python3
# parses every document.

# crafted NAME TEXT: a made-up stack in $T/crafted (as 42-lint.sh).
crafted() {
	mkdir -p "$T/crafted"
	printf '%b' "$2" > "$T/crafted/$1"
}

# One rule for sshd and su: alice loses audio and video (named), and keeps
# plugdev, users and students (not named), alice (primary) and
# games-abusers (restricting).
remote_policy() {
	policy "${1:-$POLICY}" <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "remote"; services = [ "sshd", "su" ]; drop = [ "audio", "video" ]; } );
	EOF
}

# text_then_json EXIT ARG...: dropgroups ARG... exits EXIT and prints
# its text into $T/text.out and .err; then with --json (after the verb)
# it exits EXIT too, with nothing on stderr, and one document in $T/out.
text_then_json() {
	local want=$1 verb=$2
	shift 2
	cli "$verb" "$@"
	assert_exit "$want"
	cp "$T/out" "$T/text.out"
	cp "$T/err" "$T/text.err"
	cli "$verb" --json "$@"
	assert_exit "$want"
	[ ! -s "$T/err" ] || fail "--json wrote on stderr"
}

# The diagnostics of the document at $1, printed as the text form prints
# them on stderr (FILE:LINE: [warning: ]message).
diags_as_text() {
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == 1, doc
assert doc["diagnostics_lost"] is False, doc
for d in doc["diagnostics"]:
    assert d["severity"] in ("error", "warning"), d
    tag = "warning: " if d["severity"] == "warning" else ""
    where = d["file"] + (":%d" % d["line"] if d["line"] else "") + ": " if d["file"] else ""
    print(where + tag + d["message"])
' "$1"
}

test_check_json_says_valid_and_names_the_files_read() {
	remote_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; restricting = ( "audio" );' | policy /etc/security/dropgroups.d/50-local.conf
	text_then_json 0 check -c "$POLICY"
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["command"] == "check" and doc["config"] == sys.argv[2], doc
assert doc["valid"] is True, doc
assert doc["rules"] == 1 and doc["restricting_gids"] == 2, doc
assert doc["files"] == [sys.argv[2], "/etc/security/dropgroups.d/50-local.conf"], doc
# valid with a warning: the drop-in makes audio restricting
d = doc["diagnostics"]
assert [(x["file"], x["line"], x["severity"]) for x in d] == [(sys.argv[2], 3, "warning")], d
print("check --json: valid, files", doc["files"])
' "$T/out" "$POLICY"
	diags_as_text "$T/out" > "$T/rebuilt"
	diff -u "$T/text.err" "$T/rebuilt" || fail "the diagnostics differ from the text form's"
	# the text's summary, from the same numbers
	grep -qx "$POLICY: valid: 1 rule(s), 2 restricting gid(s), 2 file(s) read" "$T/text.out" ||
		fail "the text summary differs"
}

test_check_json_gives_each_problem_with_file_line_and_severity() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", { name = "no-such-group"; optional = true; } );
	rules = (
	  { name = "a"; services = "*"; drop = "*"; colour = 1; },
	  { name = "b"; services = "*"; }
	);
	EOF
	text_then_json 1 check -c "$POLICY"
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["valid"] is False and doc["rules"] is None, doc
errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
assert len(errors) >= 2, doc
assert all(d["file"] == sys.argv[2] and d["line"] in (4, 5) for d in errors), errors
assert any("colour" in d["message"] for d in errors), errors
' "$T/out" "$POLICY"
	diags_as_text "$T/out" > "$T/rebuilt"
	diff -u "$T/text.err" "$T/rebuilt" || fail "the diagnostics differ from the text form's"
}

test_lint_json_counts_errors_and_warnings_with_file_and_line() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "here"; services = [ "su", "cron" ]; drop = [ "audio" ]; } );
	EOF
	crafted su 'session optional pam_dropgroups.so\n'
	crafted cron 'auth required pam_unix.so\nauth required pam_dropgroups.so colour=red\n'
	text_then_json 1 lint --pam-dir "$T/crafted"
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["command"] == "lint" and doc["pam_dir"] == sys.argv[2], doc
assert doc["stacks_read"] >= 2, doc
d = doc["diagnostics"]
assert doc["errors"] == sum(x["severity"] == "error" for x in d) >= 2, doc
assert doc["warnings"] == sum(x["severity"] == "warning" for x in d) >= 1, doc
def at(name, line):
    return [x for x in d if x["file"] == sys.argv[2] + "/" + name and x["line"] == line]
assert any("colour=red" in x["message"] and x["severity"] == "error" for x in at("cron", 2)), d
assert any("optional" in x["message"] and x["severity"] == "error" for x in at("su", 1)), d
print("lint --json: %d errors, %d warnings" % (doc["errors"], doc["warnings"]))
' "$T/out" "$T/crafted"
	diags_as_text "$T/out" > "$T/rebuilt"
	diff -u "$T/text.err" "$T/rebuilt" || fail "the diagnostics differ from the text form's"
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
print("%s: %d stack(s) read: %d error(s), %d warning(s)" % (doc["pam_dir"],
      doc["stacks_read"], doc["errors"], doc["warnings"]))
' "$T/out" > "$T/rebuilt"
	diff -u "$T/text.out" "$T/rebuilt" || fail "the summary differs from the text form's"
}

test_lint_json_of_a_broken_policy_reads_no_stack() {
	echo 'version = 2; restricting = ( );' | policy
	text_then_json 1 lint --pam-dir "$T/no-pam.d"
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["stacks_read"] is None and doc["errors"] == 1, doc
assert doc["diagnostics"][0]["line"] == 1, doc
' "$T/out"
}

# alice under rule "remote" (remote_policy), whose groups are dropped,
# kept, restricting and primary; su's stack has no pam_dropgroups line,
# so su is a way back in that gives the dropped groups back, and so are
# sg and newgrp.
test_explain_json_gives_each_verdict_and_the_ways_back() {
	remote_policy
	crafted su 'auth required pam_unix.so\nsession required pam_unix.so\n'
	text_then_json 0 explain -c "$POLICY" --pam-dir "$T/crafted" sshd alice
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["command"] == "explain" and doc["service"] == "sshd", doc
assert doc["user"] == {"name": "alice", "uid": 1001, "primary_gid": 1001}, doc
assert doc["not_run"] is None, doc
assert doc["rule"] == {"name": "remote", "file": sys.argv[2], "line": 3, "mode": "drop"}, doc
assert doc["no_new_privs"] is False, doc
g = {x["name"]: (x["gid"], x["verdict"], x["reason"]) for x in doc["groups"]}
assert g == {"audio": (29, "dropped", "named"), "video": (44, "dropped", "named"),
             "plugdev": (46, "kept", "not named"), "users": (100, "kept", "not named"),
             "alice": (1001, "kept", "primary"), "games-abusers": (2003, "kept", "restricting"),
             "students": (3000, "kept", "not named")}, g
assert doc["groups_after"] == [46, 100, 1001, 2003, 3000], doc
ways = {w["program"]: w for w in doc["ways_back"]}
back = [{"gid": 29, "name": "audio"}, {"gid": 44, "name": "video"}]
assert ways["sg, newgrp"]["verdict"] == "no_new_privs_unset", ways
assert ways["sg, newgrp"]["groups"] == back, ways
assert ways["su"]["verdict"] == "no_line" and ways["su"]["groups"] == back, ways
assert ways["su"]["message"].startswith(sys.argv[3] + "/su has no pam_dropgroups line"), ways
# the text form, rebuilt from the document
print("service \"%s\", user \"%s\" (uid %d, primary gid %d)" % (doc["service"],
      doc["user"]["name"], doc["user"]["uid"], doc["user"]["primary_gid"]))
r = doc["rule"]
print("rule \"%s\" (%s:%d) matches: %s" % (r["name"], r["file"], r["line"], r["mode"]))
for x in doc["groups"]:
    print("  %-8s %-24s %s" % (x["verdict"], "%s(%d)" % (x["name"], x["gid"]), x["reason"]))
print("groups after:" + "".join(" %d" % i for i in doc["groups_after"]))
print("ways back in that stay open:")
for w in doc["ways_back"]:
    print("  %s: %s" % (w["program"], w["message"]))
' "$T/out" "$POLICY" "$T/crafted" > "$T/rebuilt"
	diff -u "$T/text.out" "$T/rebuilt" || fail "the document says other than the text"
}

test_explain_json_without_a_rule_or_a_valid_policy() {
	remote_policy
	text_then_json 0 explain -c "$POLICY" --pam-dir "$T/no-pam.d" login bob
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["user"]["name"] == "bob" and doc["rule"] is None, doc
assert doc["no_new_privs"] is None and doc["groups"] == [], doc
assert doc["groups_after"] is None and doc["ways_back"] is None, doc
' "$T/out"
	echo 'version = 2; restricting = ( );' | policy
	text_then_json 1 explain sshd alice
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["user"] is None and doc["rule"] is None, doc
d = doc["diagnostics"]
assert d[0]["file"] == sys.argv[2] and d[0]["line"] == 1 and d[0]["severity"] == "error", d
assert d[0]["message"].startswith("version 2 is not supported"), d
' "$T/out" "$POLICY"
	diags_as_text "$T/out" > "$T/rebuilt"
	diff -u "$T/text.err" "$T/rebuilt" || fail "the diagnostics differ from the text form's"
}

# A group name and a policy path with a quote, a backslash, a control
# byte and bytes that are not UTF-8 still give valid JSON, each byte
# written as \u00XX as audit writes it: the bytes come back as Latin-1.
test_json_escapes_any_byte_of_a_name_or_a_path() {
	local dir weird
	weird=$(printf 'we"ird\\\001\377\303')
	dir="$T/$weird"
	mkdir -m 0755 "$dir"
	printf '%s:x:4242:alice\n' "$weird" >> /etc/group
	remote_policy
	cp -p "$POLICY" "$dir/dropgroups.conf"
	text_then_json 0 explain -c "$dir/dropgroups.conf" --pam-dir "$T/no-pam.d" sshd alice
	grep -q 'we"ird' "$T/text.out" || fail "the text form does not show the group"
	python3 -c '
import json, os, sys
raw = open(sys.argv[1], "rb").read()
assert raw.isascii(), "a byte outside ASCII was written as it is"
doc = json.loads(raw)
weird = os.fsencode(sys.argv[2])
g = [x for x in doc["groups"] if x["gid"] == 4242]
assert len(g) == 1 and g[0]["name"].encode("latin-1") == weird, g
assert g[0]["verdict"] == "kept", g
assert doc["rule"]["file"].encode("latin-1") == os.fsencode(sys.argv[3]), doc["rule"]
print("explain --json: the name round-trips,", repr(g[0]["name"]))
' "$T/out" "$weird" "$dir/dropgroups.conf"
	text_then_json 0 check -c "$dir/dropgroups.conf"
	python3 -c '
import json, os, sys
doc = json.load(open(sys.argv[1], "rb"))
assert [f.encode("latin-1") for f in doc["files"]] == [os.fsencode(sys.argv[2])], doc
' "$T/out" "$dir/dropgroups.conf"
	# a diagnostic that names the file and the group
	echo 'version = 1; restricting = ( ); colour = 1;' | policy "$dir/dropgroups.conf"
	text_then_json 1 check -c "$dir/dropgroups.conf"
	python3 -c '
import json, os, sys
doc = json.load(open(sys.argv[1], "rb"))
d = doc["diagnostics"]
assert d and d[0]["file"].encode("latin-1") == os.fsencode(sys.argv[2]), d
' "$T/out" "$dir/dropgroups.conf"
}

test_json_usage() {
	remote_policy
	cli check --json --json
	assert_exit 2
	[ ! -s "$T/out" ] || fail "a usage error wrote on stdout"
	assert_in err '^dropgroups: --json may be given only once$'
	cli run --json -- true
	assert_exit 2
	assert_in err '^dropgroups: --json is not an option of run$'
}
