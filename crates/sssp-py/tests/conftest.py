"""Fixtures shared by the test files."""

import pytest


@pytest.fixture
def quiet_nx_cache():
    """NetworkX warns when a backend's converted graph is cached; the backend tests convert
    the same graph many times on purpose, so the warning is silenced for each test and the
    setting restored after it."""
    import networkx as nx

    ignored = set(nx.config.warnings_to_ignore)
    nx.config.warnings_to_ignore.add("cache")
    yield
    nx.config.warnings_to_ignore = ignored
