// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's own failure: run by `make test INJECT_FAIL=1` to show that a
 * failing test makes the test command exit non-zero.
 */
#include "kselftest.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(1);
	ksft_test_result_fail("injected failure (MMR_INJECT_FAIL=1)\n");
	ksft_finished();
}
