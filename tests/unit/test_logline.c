/* Unit tests of the fields that lead the module's log lines (logline.c):
 * their order, "-" for what is not known, and the quoting of a value a
 * log pipeline could not split otherwise.  No I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "logline.h"

static void check(const struct dg_logline *l, const char *want)
{
	char *got = dg_logline_fields(l);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void every_field_in_its_order(void **state)
{
	(void)state;
	check(&(struct dg_logline){.service = "sshd", .user = "alice",
				   .uid = 1001, .rule = "ssh",
				   .result = "dropped",
				   .dropped = "audio(29),video(44)", .kept = 4},
	      "service=sshd user=alice uid=1001 rule=ssh result=dropped "
	      "dropped=audio(29),video(44) kept=4");
	/* more than the line names: counted in a field of its own */
	check(&(struct dg_logline){.service = "su", .user = "bob", .uid = 0,
				   .rule = "r", .result = "dropped",
				   .dropped = "a(1)", .dropped_more = 3,
				   .kept = 0},
	      "service=su user=bob uid=0 rule=r result=dropped dropped=a(1) "
	      "dropped_more=3 kept=0");
}

static void what_is_not_known_is_a_dash(void **state)
{
	(void)state;
	check(&(struct dg_logline){.result = "refused", .uid = -1,
				   .kept = -1, .dropped = ""},
	      "service=- user=- uid=- rule=- result=refused dropped=- "
	      "kept=-");
}

static void odd_values_are_quoted(void **state)
{
	(void)state;
	/* a rule really named "-" is not one not known */
	check(&(struct dg_logline){.service = "su", .user = "a", .uid = 1,
				   .rule = "-", .result = "dropped",
				   .kept = 1},
	      "service=su user=a uid=1 rule=\"-\" result=dropped dropped=- "
	      "kept=1");
	check(&(struct dg_logline){.service = "login", .user = "a b",
				   .uid = 5, .rule = "say \"hi\"\\",
				   .result = "no-rule",
				   .dropped = "x=1\n\xc3\xa9", .kept = -1},
	      "service=login user=\"a b\" uid=5 rule=\"say \\\"hi\\\"\\\\\" "
	      "result=no-rule dropped=\"x=1\\x0a\\xc3\\xa9\" kept=-");
	/* DEL is a control character too: escaped, never written raw */
	check(&(struct dg_logline){.service = "su", .user = "a\x7f",
				   .uid = 1, .result = "dropped", .kept = 1},
	      "service=su user=\"a\\x7f\" uid=1 rule=- result=dropped "
	      "dropped=- kept=1");
}

static void one_line(const char *text, const char *want)
{
	bool oom = true;
	char *got = dg_logline_one_line(text, &oom);

	assert_false(oom);
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(got);
}

static void a_message_is_one_line_whatever_its_names(void **state)
{
	(void)state;
	/* no control byte: no copy, the text goes as it is */
	one_line("result=refused: user \"al ice\" does not exist", NULL);
	/* the fields' own escapes and quotes pass through */
	one_line("user=\"a\\x0a\" rule \"b\\xc3\\xa9\"", NULL);
	/* UTF-8 is escaped as the fields escape it: among its characters
	 * are line breaks (U+0085, U+2028) and terminal controls (U+009B) */
	one_line("rule \"\xc3\xa9\" \xc2\x85\xe2\x80\xa8\xc2\x9b",
		 "rule \"\\xc3\\xa9\" \\xc2\\x85\\xe2\\x80\\xa8\\xc2\\x9b");
	one_line("", NULL);
	/* a name that would start a line of its own, a tab, ESC, DEL */
	one_line("user \"x\npam_dropgroups(sshd:auth): result=dropped\" does "
		 "not exist",
		 "user \"x\\x0apam_dropgroups(sshd:auth): result=dropped\" "
		 "does not exist");
	one_line("\ta\x1b[2Jb\x7f\r", "\\x09a\\x1b[2Jb\\x7f\\x0d");
	/* eight bytes at a time, then the rest one by one */
	one_line(" !~09AZaz\"\\/:@[`{|}", NULL);
	one_line("abc\x7f" "defg", "abc\\x7fdefg");
	one_line("abcdefgh" "ijklmnop" "q\x1f", "abcdefghijklmnopq\\x1f");
	one_line("abcdefgh" "\x01", "abcdefgh\\x01");
}

/* Every byte value at every place of lines up to two words and a bit
 * long, next to printable bytes of every kind: a copy exactly when it
 * is outside printable ASCII (the check reads eight bytes at a time). */
static void every_byte_at_every_place(void **state)
{
	static const char fill[] = {'a', ' ', '~', '!', '0'};
	char s[20];

	(void)state;
	for (size_t f = 0; f < sizeof(fill); f++)
		for (size_t len = 1; len < sizeof(s); len++)
			for (size_t at = 0; at < len; at++)
				for (int c = 1; c < 256; c++) {
					bool oom = true, ctl = c < 0x20 || c >= 0x7f;
					char *got;

					memset(s, fill[f], len);
					s[len] = '\0';
					s[at] = (char)c;
					got = dg_logline_one_line(s, &oom);
					assert_false(oom);
					if (ctl != (got != NULL))
						fail_msg("byte 0x%02x at %zu of %zu "
							 "(fill 0x%02x)", c, at, len,
							 (unsigned char)fill[f]);
					free(got);
				}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field_in_its_order),
		cmocka_unit_test(what_is_not_known_is_a_dash),
		cmocka_unit_test(odd_values_are_quoted),
		cmocka_unit_test(a_message_is_one_line_whatever_its_names),
		cmocka_unit_test(every_byte_at_every_place),
	};

	return cmocka_run_group_tests_name("logline", tests, NULL, NULL);
}
