/* Unit tests of the user-namespace check (idmap.c): which group lists a
 * process may hand back to setgroups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "idmap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void initial_namespace_accepts_everything(void **state)
{
	struct dg_idmap map;
	gid_t v[] = {0, 65534, 4294967294u}, bad = 7;

	(void)state;
	assert_int_equal(dg_idmap_parse("         0          0 4294967295\n", &map), 0);
	assert_true(dg_idmap_is_identity(&map));
	/* 65534 (nogroup) is a real group here */
	assert_int_equal(dg_idmap_check(&map, 65534, v, N(v), &bad), 0);
	dg_idmap_free(&map);
}

static void overflow_gid_in_a_namespace_is_refused(void **state)
{
	struct dg_idmap map;
	gid_t v[] = {100, 1001, 65534}, bad = 0;

	(void)state;
	assert_int_equal(dg_idmap_parse("0 0 1\n100 100 1\n1001 1001 1\n"
					"65534 65534 1\n",
					&map),
			 0);
	assert_int_equal(map.n, 4);
	assert_false(dg_idmap_is_identity(&map));
	assert_int_equal(dg_idmap_check(&map, 65534, v, N(v), &bad),
			 -EOVERFLOW);
	assert_int_equal(bad, 65534);
	/* without it, the list is fine */
	assert_int_equal(dg_idmap_check(&map, 65534, v, 2, &bad), 0);
	dg_idmap_free(&map);
}

static void unmapped_gid_is_refused(void **state)
{
	struct dg_idmap map;
	gid_t v[] = {1001, 2003}, bad = 0;

	(void)state;
	assert_int_equal(dg_idmap_parse("1000 101000 10\n", &map), 0);
	assert_int_equal(dg_idmap_check(&map, 65534, v, N(v), &bad),
			 -EOVERFLOW);
	assert_int_equal(bad, 2003);
	dg_idmap_free(&map);
}

static void garbage_is_refused(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("0 0\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("0 0 1 x\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("", &map), 0);
	assert_false(dg_idmap_is_identity(&map));
	dg_idmap_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(initial_namespace_accepts_everything),
		cmocka_unit_test(overflow_gid_in_a_namespace_is_refused),
		cmocka_unit_test(unmapped_gid_is_refused),
		cmocka_unit_test(garbage_is_refused),
	};

	return cmocka_run_group_tests_name("idmap", tests, NULL, NULL);
}
