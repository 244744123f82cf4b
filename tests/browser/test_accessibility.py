import pytest

from tests.browser.conftest import serious_accessibility_violations

PUBLIC_PAGES = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_public_pages_have_no_serious_accessibility_violation(page, path):
    """axe-core finds nothing serious or critical on the pages anyone can open."""
    page.goto(path)
    assert serious_accessibility_violations(page) == []
