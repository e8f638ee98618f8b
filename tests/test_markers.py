"""The `postgres` marker (pyproject.toml): `make test-postgres` runs only the tests that carry it, so a test that
skips itself without PostgreSQL and lacks it would run nowhere. tests/conftest.py fails such a test."""

from __future__ import annotations


def test_a_test_that_skips_without_postgresql_fails_unless_marked(pytester):
    pytester.makeconftest("from tests.conftest import pytest_runtest_makereport  # noqa: F401")
    pytester.makepyfile("""
        import pytest

        needs_postgres = pytest.mark.skipif(True, reason="needs PostgreSQL (TEST_DATABASE_URL)")

        @needs_postgres
        def test_unmarked_skipif():
            pass

        def test_unmarked_skip_inside():
            pytest.skip("SQLite has no row locks")

        @pytest.mark.postgres
        @needs_postgres
        def test_marked_skipif():
            pass

        @pytest.mark.postgres
        def test_marked_skip_inside():
            pytest.skip("SQLite has no row locks")

        def test_another_reason():
            pytest.skip("nginx is not installed")

        @pytest.mark.xfail(reason="PostgreSQL only, expected to fail")
        def test_xfail():
            assert False
    """)
    result = pytester.runpytest_inprocess("-p", "no:xdist", "-p", "no:cacheprovider", "-W", "ignore")
    result.assert_outcomes(errors=1, failed=1, skipped=3, xfailed=1)  # a skipif skips in setup: an error
    result.stdout.fnmatch_lines(["*test_unmarked_skipif skips for want of PostgreSQL*not marked postgres*",
                                 "*test_unmarked_skip_inside skips for want of PostgreSQL*"])

