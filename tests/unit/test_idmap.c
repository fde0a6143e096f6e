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
	/* as dg_kernel_sysctl_read hands it over, without its newline */
	assert_int_equal(dg_idmap_parse("         0          0 4294967295", &map), 0);
	assert_true(dg_idmap_is_identity(&map));
	assert_int_equal(map.n, 1);
	dg_idmap_free(&map);
	/* the kernel's spelling, and no more, is the short way */
	assert_int_equal(dg_idmap_parse("         0          0 4294967295\n"
					"         7          7 1\n", &map), 0);
	assert_int_equal(map.n, 2);
	dg_idmap_free(&map);
	assert_int_equal(dg_idmap_parse("         0          0 4294967295x",
					&map), -EINVAL);
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

/* Each edge of a range, where an off-by-one would show a gid that is not
 * there as the gid itself (or refuse one that is): the first gid of a
 * range, its last, the one just past it, the one just before it; a range
 * of count 0; several ranges, each looked at; a range that reaches the
 * highest gid; and the first and the last gid of the list, each checked. */
static int check1(const struct dg_idmap *map, gid_t g)
{
	gid_t bad = 7;
	int r = dg_idmap_check(map, 65534, &g, 1, &bad);

	if (r < 0)
		assert_int_equal(bad, g);
	return r;
}

static void range_edges(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("1000 101000 10\n", &map), 0);
	assert_int_equal(check1(&map, 1000), 0);	  /* the first */
	assert_int_equal(check1(&map, 1009), 0);	  /* the last */
	assert_int_equal(check1(&map, 1010), -EOVERFLOW); /* one past */
	assert_int_equal(check1(&map, 999), -EOVERFLOW);  /* one before */
	assert_int_equal(check1(&map, 0), -EOVERFLOW);
	dg_idmap_free(&map);
}

static void range_of_count_zero_maps_nothing(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("0 0 1\n1000 1000 0\n", &map), 0);
	assert_int_equal(check1(&map, 0), 0);
	assert_int_equal(check1(&map, 1000), -EOVERFLOW);
	dg_idmap_free(&map);
}

static void every_range_is_looked_at(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("         0     100000          1\n"
					"      1000     101000          1\n"
					"      2003     102003          2\n",
					&map),
			 0);
	assert_int_equal(map.n, 3);
	assert_int_equal(check1(&map, 0), 0);
	assert_int_equal(check1(&map, 1000), 0);
	assert_int_equal(check1(&map, 2003), 0);
	assert_int_equal(check1(&map, 2004), 0);
	assert_int_equal(check1(&map, 1), -EOVERFLOW);
	assert_int_equal(check1(&map, 1001), -EOVERFLOW);
	assert_int_equal(check1(&map, 2005), -EOVERFLOW);
	dg_idmap_free(&map);
}

/* The kernel maps no further than gid 4294967294 (first + count may not
 * pass 2^32 - 1): a range that ends there maps its last gid. */
static void range_that_ends_at_the_highest_gid(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("4294967200 4294967200 95\n", &map), 0);
	assert_int_equal(check1(&map, 4294967200u), 0);
	assert_int_equal(check1(&map, 4294967294u), 0);
	assert_int_equal(check1(&map, 4294967199u), -EOVERFLOW);
	dg_idmap_free(&map);
}

/* Ranges the kernel never writes: read as numbers, each would map every
 * gid (or wrap), so a gid the namespace cannot show would pass. */
static void ranges_the_kernel_cannot_write_are_refused(void **state)
{
	struct dg_idmap map;

	(void)state;
	assert_int_equal(dg_idmap_parse("0 0 -1\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("-1 0 1\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("0 -5 1\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("0 0 4294967296\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("1 0 4294967295\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("0 1 4294967295\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("4294967295 0 1\n", &map), -EINVAL);
	assert_int_equal(dg_idmap_parse("0 0 1\n1000 1000 18446744073709551615\n",
					&map),
			 -EINVAL);
	/* the baselines: the largest ranges the kernel does write */
	assert_int_equal(dg_idmap_parse("0 0 4294967295\n", &map), 0);
	assert_true(dg_idmap_is_identity(&map));
	dg_idmap_free(&map);
	assert_int_equal(dg_idmap_parse("4294967294 100 1\n", &map), 0);
	assert_int_equal(check1(&map, 4294967294u), 0);
	dg_idmap_free(&map);
}

/* A namespace that maps gids 0 to 65535 one to one is not the initial
 * one: a gid above them shows as the overflow gid, so 65534 may stand
 * for any of those. */
static void a_map_of_most_gids_is_not_the_initial_namespace(void **state)
{
	struct dg_idmap map;
	gid_t v[] = {100, 65534}, bad = 0;

	(void)state;
	assert_int_equal(dg_idmap_parse("0 0 65536\n", &map), 0);
	assert_false(dg_idmap_is_identity(&map));
	assert_int_equal(dg_idmap_check(&map, 65534, v, N(v), &bad),
			 -EOVERFLOW);
	assert_int_equal(bad, 65534);
	dg_idmap_free(&map);
	assert_int_equal(dg_idmap_parse("0 0 4294967294\n", &map), 0);
	assert_false(dg_idmap_is_identity(&map));
	dg_idmap_free(&map);
}

static void first_and_last_gid_of_the_list_are_checked(void **state)
{
	struct dg_idmap map;
	gid_t first[] = {7, 1000, 1001}, last[] = {1000, 1001, 7}, bad = 0;

	(void)state;
	assert_int_equal(dg_idmap_parse("1000 1000 2\n", &map), 0);
	assert_int_equal(dg_idmap_check(&map, 65534, first, N(first), &bad),
			 -EOVERFLOW);
	assert_int_equal(bad, 7);
	bad = 0;
	assert_int_equal(dg_idmap_check(&map, 65534, last, N(last), &bad),
			 -EOVERFLOW);
	assert_int_equal(bad, 7);
	assert_int_equal(dg_idmap_check(&map, 65534, first + 1, 2, &bad), 0);
	dg_idmap_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(initial_namespace_accepts_everything),
		cmocka_unit_test(overflow_gid_in_a_namespace_is_refused),
		cmocka_unit_test(unmapped_gid_is_refused),
		cmocka_unit_test(garbage_is_refused),
		cmocka_unit_test(ranges_the_kernel_cannot_write_are_refused),
		cmocka_unit_test(range_edges),
		cmocka_unit_test(range_of_count_zero_maps_nothing),
		cmocka_unit_test(every_range_is_looked_at),
		cmocka_unit_test(range_that_ends_at_the_highest_gid),
		cmocka_unit_test(a_map_of_most_gids_is_not_the_initial_namespace),
		cmocka_unit_test(first_and_last_gid_of_the_list_are_checked),
	};

	return cmocka_run_group_tests_name("idmap", tests, NULL, NULL);
}
