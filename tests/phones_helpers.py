"""What the phones' browser tests share (tests/test_phones_*browser.py): Debian's chromium
driven by selenium through chromium-driver, the server started on a file, and the page's
measures (a screenshot and what it shows).

Nothing downloads a browser.  Where chromium or its driver is missing the tests that import
this are skipped, except in CI (`CI=true`), where they fail: .ci/run installs both."""

from __future__ import annotations

import os
import shutil
import time
from contextlib import contextmanager

import pytest
from phones_tables import NOW, seq, table  # noqa: F401 (the browser tests take them from here too)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

if not (CHROMIUM and DRIVER):
    if os.environ.get("CI") == "true":
        pytest.fail("CI needs chromium and chromium-driver (Debian); .ci/run installs them",
                    pytrace=False)
    pytest.skip("chromium and chromium-driver are not installed (Debian: apt-get install "
                "chromium chromium-driver)", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver")


def browser(size=(390, 844)):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_script_timeout(10)
    return driver


@contextmanager
def served(db: str, **options):
    """`banco serve` on `db` and a way to open browsers on it: (base URL, open(size)).  Every
    browser opened is closed and the server stopped on the way out, whatever happened."""
    from banco.cli.web.serve import start

    base, _, stop = start(db, port=0, poll=0.05, **options)
    opened = []

    def open_(size=(390, 844)):
        opened.append(browser(size))
        return opened[-1]

    try:
        yield base, open_
    finally:
        for d in opened:
            d.quit()
        stop()


def until(driver, script: str, timeout: float = 10.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, 0.05).until(lambda d: d.execute_script(script))


def click(driver, css: str) -> None:
    """Click what `css` finds once it is clickable.  The page redraws its pads at each table it
    is sent, so the button found may be replaced before the click reaches it: then the new one
    is found and clicked (the stale one was never clicked)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    for _ in range(20):
        try:
            WebDriverWait(driver, 10, 0.05, ignored_exceptions=(
                StaleElementReferenceException,)).until(
                ec.element_to_be_clickable((By.CSS_SELECTOR, css)))
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{css} was redrawn under every click")


def offline(driver, off: bool = True) -> None:
    """The phone drops off the Wi-Fi (or comes back)."""
    driver.set_network_conditions(offline=off, latency=0, download_throughput=-1,
                                  upload_throughput=-1)


def recorded_after(driver, db: str, before: int) -> int:
    """Wait until the page shows a table past `before` (the line was recorded); its seq."""
    until(driver, f"return Number(document.body.dataset.seq) > {before}")
    return seq(db)


def shot(driver, path: str, width: int, height: int) -> dict:
    """A screenshot at a size, and what it shows: horizontal scroll, the labels' sizes."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    until(driver, "return document.body.dataset.seq !== undefined")
    driver.save_screenshot(path)
    return driver.execute_script("""
      const labels = [...document.querySelectorAll('#board .nm')].filter(e => e.offsetParent);
      const board = document.getElementById('board').getBoundingClientRect();
      const last = [...document.querySelectorAll('main > *')].map(e => e.getBoundingClientRect());
      return {scroll: document.documentElement.scrollWidth - window.innerWidth,
              small: labels.filter(e => parseFloat(getComputedStyle(e).fontSize) < 9).length,
              clipped: labels.filter(e => e.scrollWidth > e.clientWidth + 1).length,
              labels: labels.length, board: board.width,
              gap: last.length > 1 ? last[1].top - board.bottom : 0};""")


def in_view(driver, css: str) -> bool:
    """Whether what `css` finds is shown and wholly inside the window (no scrolling to it)."""
    return driver.execute_script("""const e = document.querySelector(arguments[0]);
      if (!e || !e.offsetParent) return false;
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;""", css)


def no_page_errors(drivers) -> None:
    """No page logged an error of its own (a refused /api/ call is the test's own doing)."""
    for d in drivers:
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"
                  and "/api/" not in e["message"]]
        assert errors == [], errors
